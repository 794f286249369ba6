package io.github.threadmodel.internal.flavour;

import java.lang.management.ManagementFactory;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.ObjectName;

/**
 * Whether the application's own classes were loaded from an archive: an application CDS
 * archive or a JDK AOT cache.
 * <p>
 * The JVM options alone do not tell. HotSpot silently ignores an archive that does not
 * match the class path (a jar rebuilt or moved after the training run), keeps the option
 * set, and still says "sharing" in {@code java.vm.info} because the JDK's own base
 * archive stays mapped. What does tell is HotSpot's metaspace statistics
 * ({@code jcmd <pid> VM.metaspace by-spacetype}, reached through the platform
 * DiagnosticCommand MBean): the standard class loaders (application and platform) only
 * ever have shared classes when an application archive is in use, the JDK's base archive
 * holding boot classes only.
 */
final class ApplicationClassSharing {

	private static final Pattern STANDARD_LOADERS = Pattern.compile("(?m)^Standard - .*$");

	private static final Pattern SHARED_COUNT = Pattern.compile("\\((\\d+) shared\\)");

	private ApplicationClassSharing() {
	}

	/**
	 * Reads this JVM's metaspace statistics.
	 * @return whether application classes are shared, or {@code null} when the JVM does
	 * not say (not HotSpot, or a format this class does not know)
	 */
	static Boolean detect() {
		try {
			Object output = ManagementFactory.getPlatformMBeanServer()
				.invoke(new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmMetaspace",
						new Object[] { new String[] { "by-spacetype" } }, new String[] { String[].class.getName() });
			return fromMetaspaceStatistics(String.valueOf(output));
		}
		catch (JMException | RuntimeException ex) {
			return null;
		}
	}

	/**
	 * Reads the output of {@code VM.metaspace by-spacetype}, whose line for the standard
	 * loaders is, for example, {@code Standard - 3 loaders, 13121 classes (11797 shared):}
	 * with an archive and {@code Standard - 3 loaders, 13120 classes:} without one.
	 * @param statistics the command's output
	 * @return whether the standard loaders have shared classes, or {@code null} when the
	 * output has no line for them
	 */
	static Boolean fromMetaspaceStatistics(String statistics) {
		Matcher line = STANDARD_LOADERS.matcher(statistics);
		if (!line.find()) {
			return null;
		}
		Matcher shared = SHARED_COUNT.matcher(line.group());
		return shared.find() && Long.parseLong(shared.group(1)) > 0;
	}

}
