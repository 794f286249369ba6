package io.github.threadmodel.internal.flavour;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ApplicationClassSharing}. The statistics below are the standard
 * loaders' lines of {@code jcmd <pid> VM.metaspace by-spacetype} from sample-web on
 * JDK 25; {@code load/flavours.py check} asserts the detection on real started processes
 * of every flavour.
 */
class ApplicationClassSharingTests {

	private static final String HEADER = """
			Metaspace        used 15559K, committed 16000K, reserved 1114112K
			 class space     used 1524K, committed 1728K, reserved 1048576K

			Usage per space type:

			""";

	private static final String BOOT = """

			Boot - 1 loader, 3443 classes (3044 shared):
			  Non-Class:    2 chunks,      5.00 MB capacity,    4.12 MB ( 82%) committed
			""";

	@Test
	void archiveOfApplicationClassesIsInUse() {
		String statistics = HEADER + "Standard - 3 loaders, 13121 classes (11797 shared):\n" + BOOT;
		assertThat(ApplicationClassSharing.fromMetaspaceStatistics(statistics)).isTrue();
	}

	@Test
	void onlyTheJdksOwnArchiveIsInUse() {
		// An archive that did not match the class path: the JVM ignored it, and only the
		// boot loader has shared classes.
		String statistics = HEADER + "Standard - 3 loaders, 13120 classes:\n" + BOOT;
		assertThat(ApplicationClassSharing.fromMetaspaceStatistics(statistics)).isFalse();
	}

	@Test
	void unknownFormatIsNotGuessed() {
		assertThat(ApplicationClassSharing.fromMetaspaceStatistics("Metaspace used 15559K")).isNull();
	}

	@Test
	void thisTestJvmHasNoApplicationArchive() {
		// Started without -XX:SharedArchiveFile or -XX:AOTCache; the JDK's base archive
		// (which makes java.vm.info say "sharing") must not count.
		assertThat(ApplicationClassSharing.detect()).isFalse();
		assertThat(RuntimeFlavour.detect().name()).isEqualTo("jvm");
	}

}
