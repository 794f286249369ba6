package io.github.threadmodel.internal.servers;

import io.netty.channel.ChannelOption;
import reactor.netty.http.server.HttpServer;

/**
 * Gives Reactor Netty the starter's accept backlog. Netty's event loops stay as they are:
 * they never run blocking work (see {@link ThreadModelWebFluxConfigurer}).
 */
public final class NettyThreadModel {

	private final int backlog;

	/**
	 * Creates the adapter.
	 * @param backlog the accept backlog
	 */
	public NettyThreadModel(int backlog) {
		this.backlog = backlog;
	}

	/**
	 * Applies the backlog to a server.
	 * @param server the server
	 * @return the server with the backlog
	 */
	public HttpServer apply(HttpServer server) {
		return server.option(ChannelOption.SO_BACKLOG, this.backlog);
	}

}
