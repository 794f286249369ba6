package io.github.threadmodel.testapp;

import java.io.IOException;
import java.io.InputStream;
import java.util.Set;

/**
 * Defines new copies of classes in a class loader of its own, so that their static
 * initializers run again and their class references are resolved again: every copy has
 * the same class and method names, so the pinning it causes lands on the same call site.
 */
public final class FreshClassCopy extends ClassLoader {

	private final Set<String> copied;

	private final String slowlyLoaded;

	private final long blockMs;

	private FreshClassCopy(Class<?> type, Class<?> slowlyLoaded, long blockMs) {
		super(type.getClassLoader());
		this.copied = (slowlyLoaded != null) ? Set.of(type.getName(), slowlyLoaded.getName()) : Set.of(type.getName());
		this.slowlyLoaded = (slowlyLoaded != null) ? slowlyLoaded.getName() : null;
		this.blockMs = blockMs;
	}

	/**
	 * Defines and initializes a fresh copy of {@code type}.
	 * @param type a class whose bytecode is on the class path
	 * @return the initialized copy
	 */
	public static Class<?> initialize(Class<?> type) {
		return load(new FreshClassCopy(type, null, 0), type);
	}

	/**
	 * Calls the static no-argument method {@code run} of a fresh copy of {@code type}, in a
	 * class loader that blocks before it defines {@code slowlyLoaded}: when {@code run}
	 * needs that class, the JVM asks the class loader for it, and the virtual thread pins.
	 * @param type a class whose {@code run} method uses {@code slowlyLoaded}
	 * @param slowlyLoaded the class whose loading blocks
	 * @param blockMs how long its loading blocks
	 */
	public static void runLoadingSlowly(Class<?> type, Class<?> slowlyLoaded, long blockMs) {
		try {
			load(new FreshClassCopy(type, slowlyLoaded, blockMs), type).getMethod("run").invoke(null);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private static Class<?> load(FreshClassCopy loader, Class<?> type) {
		try {
			return Class.forName(type.getName(), true, loader);
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
		if (!this.copied.contains(name)) {
			return super.loadClass(name, resolve);
		}
		synchronized (getClassLoadingLock(name)) {
			Class<?> loaded = findLoadedClass(name);
			return (loaded != null) ? loaded : define(name);
		}
	}

	private Class<?> define(String name) throws ClassNotFoundException {
		try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
			if (name.equals(this.slowlyLoaded)) {
				Thread.sleep(this.blockMs); // slow loading is the work here: not a wait of a test
			}
			byte[] bytes = in.readAllBytes();
			return defineClass(name, bytes, 0, bytes.length);
		}
		catch (IOException ex) {
			throw new ClassNotFoundException(name, ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new ClassNotFoundException(name, ex);
		}
	}

}
