package io.github.threadmodel.boot4;

import io.github.threadmodel.internal.servers.NettyThreadModel;

import org.springframework.boot.reactor.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Applies {@link NettyThreadModel} to the Reactor Netty server.
 */
class NettyThreadModelCustomizer implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory>, Ordered {

	private final NettyThreadModel netty;

	NettyThreadModelCustomizer(NettyThreadModel netty) {
		this.netty = netty;
	}

	@Override
	public void customize(NettyReactiveWebServerFactory factory) {
		factory.addServerCustomizers(this.netty::apply);
	}

	@Override
	public int getOrder() {
		return ThreadModelWebServerAutoConfiguration.CUSTOMIZER_ORDER;
	}

}
