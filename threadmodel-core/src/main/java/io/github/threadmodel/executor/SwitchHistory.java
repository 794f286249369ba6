package io.github.threadmodel.executor;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * The last switches of a {@link ThreadModelExecutor}, newest first, and the listeners
 * told of each new one.
 */
final class SwitchHistory {

	private static final int SIZE = 10;

	private final Deque<ModelSwitch> switches = new ArrayDeque<>();

	private final List<Consumer<ModelSwitch>> listeners = new CopyOnWriteArrayList<>();

	void add(ModelSwitch change) {
		synchronized (this.switches) {
			if (this.switches.size() == SIZE) {
				this.switches.removeLast();
			}
			this.switches.addFirst(change);
		}
		this.listeners.forEach((listener) -> listener.accept(change));
	}

	List<ModelSwitch> list() {
		synchronized (this.switches) {
			return List.copyOf(this.switches);
		}
	}

	void onSwitch(Consumer<ModelSwitch> listener) {
		this.listeners.add(listener);
	}

}
