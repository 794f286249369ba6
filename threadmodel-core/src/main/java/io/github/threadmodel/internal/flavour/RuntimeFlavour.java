package io.github.threadmodel.internal.flavour;

import java.lang.management.ManagementFactory;

import com.sun.management.HotSpotDiagnosticMXBean;

import org.springframework.aot.AotDetector;
import org.springframework.core.NativeDetector;

/**
 * How the running application was built and started, detected from the JVM itself rather
 * than configured by hand.
 *
 * @param name {@code jvm}, {@code cds}, {@code aot}, {@code cds-aot}, {@code aotcache},
 * {@code aotcache-aot} or {@code native}
 * @param cds whether the application's classes come from a class-data sharing archive
 * ({@code -XX:SharedArchiveFile})
 * @param aotCache whether the application's classes come from a JDK AOT cache
 * ({@code -XX:AOTCache}, JDK 24+)
 * @param springAot whether Spring AOT's generated code is in use
 * ({@code -Dspring.aot.enabled=true} or a native image)
 * @param nativeImage whether this is a GraalVM native image
 */
public record RuntimeFlavour(String name, boolean cds, boolean aotCache, boolean springAot, boolean nativeImage) {

	/**
	 * Detects the flavour of this process.
	 * @return the flavour
	 */
	public static RuntimeFlavour detect() {
		boolean springAot = AotDetector.useGeneratedArtifacts();
		if (NativeDetector.inNativeImage()) {
			return new RuntimeFlavour("native", false, false, springAot, true);
		}
		boolean applicationArchive = applicationArchiveInUse();
		boolean aotCache = applicationArchive && vmOptionIsSet("AOTCache");
		boolean cds = applicationArchive && !aotCache;
		String base = aotCache ? "aotcache" : (cds ? "cds" : "jvm");
		String name = springAot ? (base.equals("jvm") ? "aot" : base + "-aot") : base;
		return new RuntimeFlavour(name, cds, aotCache, springAot, false);
	}

	private static boolean applicationArchiveInUse() {
		Boolean shared = ApplicationClassSharing.detect();
		if (shared != null) {
			return shared;
		}
		// Less sure: HotSpot says "sharing" in java.vm.info when any archive is mapped,
		// which may be only the JDK's own.
		return System.getProperty("java.vm.info", "").contains("sharing")
				&& (vmOptionIsSet("AOTCache") || vmOptionIsSet("SharedArchiveFile"));
	}

	private static boolean vmOptionIsSet(String option) {
		try {
			HotSpotDiagnosticMXBean hotSpot = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
			return hotSpot != null && !hotSpot.getVMOption(option).getValue().isEmpty();
		}
		catch (RuntimeException | LinkageError ex) {
			return false; // not HotSpot, or a JDK without that option
		}
	}

}
