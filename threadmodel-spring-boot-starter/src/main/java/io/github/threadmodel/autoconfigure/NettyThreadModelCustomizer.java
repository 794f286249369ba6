package io.github.threadmodel.autoconfigure;

import io.netty.channel.ChannelOption;

import org.springframework.boot.web.embedded.netty.NettyReactiveWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;

/**
 * Gives Reactor Netty the starter's accept backlog. Netty's event loops stay as they are:
 * they never run blocking work (see {@link ThreadModelWebFluxConfigurer}).
 */
public class NettyThreadModelCustomizer implements WebServerFactoryCustomizer<NettyReactiveWebServerFactory>, Ordered {

	private final int backlog;

	/**
	 * Creates a customizer.
	 * @param backlog the accept backlog
	 */
	public NettyThreadModelCustomizer(int backlog) {
		this.backlog = backlog;
	}

	@Override
	public void customize(NettyReactiveWebServerFactory factory) {
		factory.addServerCustomizers((server) -> server.option(ChannelOption.SO_BACKLOG, this.backlog));
	}

	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
