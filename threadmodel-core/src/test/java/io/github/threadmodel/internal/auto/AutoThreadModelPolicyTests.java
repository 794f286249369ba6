package io.github.threadmodel.internal.auto;

import java.time.Duration;
import java.time.Instant;

import io.github.threadmodel.executor.ThreadModel;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.Decision;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.Thresholds;
import io.github.threadmodel.internal.auto.AutoThreadModelPolicy.WorkloadSample;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The decisions of {@link AutoThreadModelPolicy}, from plain figures.
 */
class AutoThreadModelPolicyTests {

	private static final Thresholds THRESHOLDS = new Thresholds(Duration.ofMillis(10), 0.5, Duration.ofMillis(20),
			Duration.ofMillis(200), 3, Duration.ofSeconds(15));

	private static final Instant START = Instant.parse("2026-11-22T06:00:00Z");

	private final AutoThreadModelPolicy policy = new AutoThreadModelPolicy(THRESHOLDS);

	@Test
	void blockedThreadsOfAnExhaustedPoolCallForVirtualThreads() {
		Decision decision = decideAt(20, blockedPlatform(), blockedPlatform(), blockedPlatform());
		assertThat(decision.switchTo()).isEqualTo(ThreadModel.VIRTUAL);
		assertThat(decision.reason()).contains("every platform thread was busy")
			.contains("waited 250.0 ms for a platform thread")
			.contains("used 5% of the CPU (busy from 50%)")
			.contains("they are blocked");
	}

	@Test
	void waitsWhileThePoolHasThreadsToSpareAreNoShortage() {
		WorkloadSample waitsForTheCpu = platform(false, 30, 0.2);
		Decision decision = decideAt(20, waitsForTheCpu, waitsForTheCpu, waitsForTheCpu, waitsForTheCpu);
		assertThat(decision.isSwitch()).isFalse();
		assertThat(decision.reason()).contains("with threads to spare: there are threads enough");
	}

	@Test
	void shortWaitsAreNoShortage() {
		WorkloadSample shortWaits = platform(true, 2, 0.05);
		Decision decision = decideAt(20, shortWaits, shortWaits, shortWaits, shortWaits);
		assertThat(decision.isSwitch()).isFalse();
		assertThat(decision.reason()).contains("waited 2.0 ms").contains("there are threads enough");
	}

	@Test
	void computingThreadsOfAnExhaustedPoolStayOnPlatformThreads() {
		WorkloadSample computing = platform(true, 250, 0.8);
		Decision decision = decideAt(20, computing, computing, computing, computing);
		assertThat(decision.isSwitch()).isFalse();
		assertThat(decision.reason()).contains("used 80% of the CPU").contains("more threads would not help");
	}

	@Test
	void starvedVirtualThreadsCallForPlatformThreads() {
		Decision decision = decideAt(20, starvedVirtual(), starvedVirtual(), starvedVirtual());
		assertThat(decision.switchTo()).isEqualTo(ThreadModel.PLATFORM);
		assertThat(decision.reason()).contains("a new virtual thread waited 120.0 ms for a carrier thread")
			.contains("(switch at 20.0 ms)")
			.contains("starve the others");
	}

	@Test
	void virtualThreadsThatGetACarrierSoonStay() {
		WorkloadSample calm = virtual(0.3);
		Decision decision = decideAt(20, calm, calm, calm, calm);
		assertThat(decision.isSwitch()).isFalse();
		assertThat(decision.reason()).contains("waited 0.3 ms for a carrier thread");
	}

	@Test
	void aSwitchNeedsConsecutiveAgreeingWindows() {
		assertThat(decideAt(20, blockedPlatform(), blockedPlatform()).isSwitch()).isFalse();
		Decision calm = decideAt(21, platform(true, 1, 0.05));
		assertThat(calm.isSwitch()).isFalse();
		Decision first = decideAt(22, blockedPlatform());
		assertThat(first.isSwitch()).isFalse();
		assertThat(first.reason()).endsWith("(window 1 of 3 calling for virtual threads)");
		assertThat(decideAt(23, blockedPlatform()).reason()).endsWith("(window 2 of 3 calling for virtual threads)");
		assertThat(decideAt(24, blockedPlatform()).switchTo()).isEqualTo(ThreadModel.VIRTUAL);
	}

	@Test
	void theFirstSwitchWaitsForNoDwell() {
		assertThat(decideAt(0, starvedVirtual(), starvedVirtual(), starvedVirtual()).switchTo())
			.isEqualTo(ThreadModel.PLATFORM);
	}

	@Test
	void noSwitchWithinTheMinimumDwellAfterTheLastSwitch() {
		assertThat(decideAt(20, starvedVirtual(), starvedVirtual(), starvedVirtual()).switchTo())
			.isEqualTo(ThreadModel.PLATFORM);
		Decision back = decideAt(30, blockedPlatform(), blockedPlatform(), blockedPlatform());
		assertThat(back.isSwitch()).isFalse();
		assertThat(back.reason()).endsWith("(waiting: 10.0s of the minimum 15.0s on platform threads)");
		assertThat(decideAt(34, blockedPlatform()).isSwitch()).isFalse();
		assertThat(decideAt(35, blockedPlatform()).switchTo()).isEqualTo(ThreadModel.VIRTUAL);
	}

	@Test
	void restartClearsTheAgreeingWindowsAndTheDwell() {
		decideAt(20, blockedPlatform(), blockedPlatform());
		this.policy.restart(START.plusSeconds(21));
		Decision afterRestart = decideAt(22, blockedPlatform(), blockedPlatform(), blockedPlatform());
		assertThat(afterRestart.isSwitch()).isFalse();
		assertThat(afterRestart.reason()).contains("waiting: 1.0s of the minimum 15.0s");
		assertThat(decideAt(36, blockedPlatform()).switchTo()).isEqualTo(ThreadModel.VIRTUAL);
	}

	@Test
	void windowsCallingForTheOtherModelDoNotAdd() {
		// the model changed by other means between windows: each call starts its own count
		decideAt(20, blockedPlatform(), blockedPlatform());
		Decision other = decideAt(21, starvedVirtual());
		assertThat(other.reason()).endsWith("(window 1 of 3 calling for platform threads)");
	}

	@Test
	void aProbeWaitingPastTheSevereDelaySwitchesAtOnce() {
		Decision decision = this.policy.decideStarving(ThreadModel.VIRTUAL, Duration.ofMillis(230),
				START.plusSeconds(20));
		assertThat(decision.switchTo()).isEqualTo(ThreadModel.PLATFORM);
		assertThat(decision.reason()).contains("has waited 230.0 ms for a carrier thread and still waits")
			.contains("(switch at once from 200.0 ms)");
	}

	@Test
	void aProbeWaitingLessThanTheSevereDelayLeavesItToTheWindows() {
		assertThat(this.policy.decideStarving(ThreadModel.VIRTUAL, Duration.ofMillis(150), START).isSwitch())
			.isFalse();
		assertThat(this.policy.decideStarving(ThreadModel.PLATFORM, Duration.ofSeconds(2), START).isSwitch())
			.isFalse();
	}

	@Test
	void aSevereDelayWaitsForTheMinimumDwell() {
		assertThat(decideAt(20, blockedPlatform(), blockedPlatform(), blockedPlatform()).switchTo())
			.isEqualTo(ThreadModel.VIRTUAL);
		Decision early = this.policy.decideStarving(ThreadModel.VIRTUAL, Duration.ofSeconds(1), START.plusSeconds(30));
		assertThat(early.isSwitch()).isFalse();
		assertThat(early.reason()).endsWith("(waiting: 10.0s of the minimum 15.0s on virtual threads)");
		assertThat(this.policy.decideStarving(ThreadModel.VIRTUAL, Duration.ofSeconds(1), START.plusSeconds(35))
			.switchTo()).isEqualTo(ThreadModel.PLATFORM);
	}

	@Test
	void aSevereSwitchStartsTheDwellAndTheWindowsOver() {
		decideAt(20, starvedVirtual(), starvedVirtual());
		assertThat(this.policy.decideStarving(ThreadModel.VIRTUAL, Duration.ofMillis(300), START.plusSeconds(21))
			.isSwitch()).isTrue();
		Decision back = decideAt(25, blockedPlatform(), blockedPlatform(), blockedPlatform());
		assertThat(back.isSwitch()).isFalse();
		assertThat(back.reason()).endsWith("(waiting: 4.0s of the minimum 15.0s on platform threads)");
	}

	/**
	 * Feeds the samples and answers the last decision, all at {@code seconds} after start.
	 */
	private Decision decideAt(long seconds, WorkloadSample... samples) {
		Decision decision = null;
		for (WorkloadSample sample : samples) {
			decision = this.policy.decide(sample, START.plusSeconds(seconds));
		}
		return decision;
	}

	private static WorkloadSample blockedPlatform() {
		return platform(true, 250, 0.05);
	}

	private static WorkloadSample platform(boolean poolExhausted, long waitMs, double cpuShare) {
		return new WorkloadSample(ThreadModel.PLATFORM, Duration.ofSeconds(1), 200, poolExhausted ? 50 : 0,
				poolExhausted, Duration.ofMillis(waitMs), cpuShare, Duration.ZERO, Duration.ZERO);
	}

	private static WorkloadSample starvedVirtual() {
		return virtual(120);
	}

	private static WorkloadSample virtual(double schedulingDelayMs) {
		return new WorkloadSample(ThreadModel.VIRTUAL, Duration.ofSeconds(1), 200, 0, false, Duration.ZERO, 0,
				Duration.ofNanos((long) (schedulingDelayMs * 1_000_000)),
				Duration.ofNanos((long) (schedulingDelayMs * 1_000_000)));
	}

}
