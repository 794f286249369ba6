package io.github.threadmodel.internal.servers;

import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.Test;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

class NettyThreadModelTests {

	@Test
	void serverGetsTheBacklog() {
		HttpServer server = new NettyThreadModel(1024).apply(HttpServer.create());
		assertThat(server.configuration().options().get(ChannelOption.SO_BACKLOG)).isEqualTo(1024);
	}

}
