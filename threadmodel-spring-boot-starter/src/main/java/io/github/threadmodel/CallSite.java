package io.github.threadmodel;

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
 */
public record CallSite(String className, String methodName) {

	private static final String VIRTUAL_THREAD = "java.lang.VirtualThread";

	private static final CallSite UNKNOWN = new CallSite("unknown", "unknown");

	/**
	 * The call site of a pinning event: its topmost frame outside the JDK. The frames above
	 * it are the JDK's blocking call (Thread.sleep, LockSupport.park, ...) and the
	 * virtual-thread machinery that recorded the event, the same for every pinning; the
	 * first frame below them is the code that blocked, such as the {@code <clinit>} of a
	 * class whose static initializer waits. The starter's executor frames are not skipped:
	 * they sit at the bottom of request stacks, below the application's, so they are only
	 * reached when no application frame is there. A frame is the JDK's when the bootstrap
	 * or platform class loader defined its class (exact, unlike package-name lists, which
	 * would also skip libraries in {@code javax.*} or {@code com.sun.*}). When every frame
	 * is the JDK's, the site is the topmost frame below the virtual-thread machinery.
	 * @param stackTrace the event's stack trace, topmost frame first, or {@code null}
	 * @return the call site
	 */
	public static CallSite of(RecordedStackTrace stackTrace) {
		List<RecordedFrame> frames = (stackTrace != null) ? stackTrace.getFrames() : List.of();
		CallSite topJdkFrame = null;
		for (RecordedFrame frame : frames) {
			RecordedClass type = frame.getMethod().getType();
			CallSite site = new CallSite(type.getName(), frame.getMethod().getName());
			if (!isJdk(type)) {
				return site;
			}
			if (topJdkFrame == null && !VIRTUAL_THREAD.equals(type.getName())) {
				topJdkFrame = site;
			}
		}
		return (topJdkFrame != null) ? topJdkFrame : UNKNOWN;
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
