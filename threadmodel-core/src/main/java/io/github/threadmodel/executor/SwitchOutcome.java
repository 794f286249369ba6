package io.github.threadmodel.executor;

/**
 * What {@link ThreadModelSwitcher#apply} did with a {@link SwitchRequest}: switched,
 * found it in force already, or refused it (then nothing changed).
 * @since 0.1.0
 */
public sealed interface SwitchOutcome {

	/**
	 * The request executor switched (its model, its limits, or both).
	 *
	 * @param change the switch, as the history records it
	 */
	record Switched(ModelSwitch change) implements SwitchOutcome {

	}

	/**
	 * The request executor already ran as asked: nothing was switched nor recorded. Asked
	 * for {@link ThreadModelChoice#AUTO}, auto decides again all the same.
	 *
	 * @param model the model in force
	 */
	record Unchanged(ThreadModel model) implements SwitchOutcome {

	}

	/**
	 * Nothing changed.
	 *
	 * @param reason why, as a kind
	 * @param message why, in words
	 */
	record Refused(Reason reason, String message) implements SwitchOutcome {

		/**
		 * Why a switch was refused.
		 */
		public enum Reason {

			/** Switching is turned off ({@code app.threads.switching.enabled=false}). */
			DISABLED,

			/** {@code auto} asked of an application that did not start with it. */
			NO_AUTO,

			/** A limit below 1. */
			INVALID_LIMIT,

			/** A lane that is not configured, or {@code auto} asked of a lane. */
			INVALID_LANE

		}

	}

}
