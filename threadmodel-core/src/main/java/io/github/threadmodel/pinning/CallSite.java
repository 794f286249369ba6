package io.github.threadmodel.pinning;

import java.util.List;

import jdk.jfr.consumer.RecordedClass;
import jdk.jfr.consumer.RecordedClassLoader;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;

/**
 * Where a virtual thread was pinned: the method that blocked, named by its class and
 * method.
 *
 * @param className the binary name of the class, for example {@code com.example.Catalog$Cache}
 * @param methodName the method, {@code <clinit>} for a class initializer
 * @since 0.1.0
 */
public record CallSite(String className, String methodName) {

	private static final String VIRTUAL_THREAD = "java.lang.VirtualThread";

	private static final String CLASS_LOADER = "java.lang.ClassLoader";

	private static final CallSite UNKNOWN = new CallSite("unknown", "unknown");

	/**
	 * The call site of a pinning event: its topmost frame outside the JDK. The frames above
	 * it are the JDK's blocking call (Thread.sleep, LockSupport.park, ...) and the
	 * virtual-thread machinery that recorded the event, the same for every pinning; the
	 * first frame below them is the code that blocked, such as the {@code <clinit>} of a
	 * class whose static initializer waits.
	 * <p>
	 * When the virtual thread pinned while the JVM loaded a class for it (common in the
	 * first requests after startup, when threads contend for the class-loading lock), the
	 * search starts below the outermost {@code ClassLoader.loadClass} frame, at the code
	 * that needed the class: otherwise every such pinning would land on the class loader
	 * (Spring Boot's {@code LaunchedClassLoader} in an executable jar).
	 * <p>
	 * A frame is the JDK's when the bootstrap or platform class loader defined its class
	 * (exact, unlike package-name lists, which would also skip libraries in
	 * {@code javax.*} or {@code com.sun.*}). The starter's executor frames are not skipped:
	 * they sit at the bottom of request stacks, below the application's. When no frame is
	 * outside the JDK, the site is the topmost frame below the virtual-thread machinery.
	 * @param stackTrace the event's stack trace, topmost frame first, or {@code null}
	 * @return the call site
	 */
	public static CallSite of(RecordedStackTrace stackTrace) {
		List<RecordedFrame> frames = (stackTrace != null) ? stackTrace.getFrames() : List.of();
		int belowClassLoading = 0;
		for (int i = 0; i < frames.size(); i++) {
			if (isClassLoading(frames.get(i))) {
				belowClassLoading = i + 1;
			}
		}
		CallSite site = firstOutsideJdk(frames.subList(belowClassLoading, frames.size()));
		if (site == null) {
			site = firstOutsideJdk(frames);
		}
		return (site != null) ? site : topJdkFrame(frames);
	}

	private static CallSite firstOutsideJdk(List<RecordedFrame> frames) {
		for (RecordedFrame frame : frames) {
			if (!isJdk(frame.getMethod().getType())) {
				return of(frame);
			}
		}
		return null;
	}

	private static CallSite topJdkFrame(List<RecordedFrame> frames) {
		for (RecordedFrame frame : frames) {
			if (!VIRTUAL_THREAD.equals(frame.getMethod().getType().getName())) {
				return of(frame);
			}
		}
		return UNKNOWN;
	}

	private static CallSite of(RecordedFrame frame) {
		return new CallSite(frame.getMethod().getType().getName(), frame.getMethod().getName());
	}

	private static boolean isClassLoading(RecordedFrame frame) {
		return CLASS_LOADER.equals(frame.getMethod().getType().getName())
				&& "loadClass".equals(frame.getMethod().getName());
	}

	private static boolean isJdk(RecordedClass type) {
		RecordedClassLoader loader = type.getClassLoader();
		// the bootstrap loader is recorded without a type
		return loader == null || loader.getType() == null || "platform".equals(loader.getName());
	}

	@Override
	public String toString() {
		return this.className + "." + this.methodName;
	}

}
