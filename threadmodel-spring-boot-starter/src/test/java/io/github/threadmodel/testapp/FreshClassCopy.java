package io.github.threadmodel.testapp;

import java.io.IOException;
import java.io.InputStream;

/**
 * Defines a new copy of a class in a class loader of its own and initializes it, so that
 * its static initializer runs again: every copy has the same class and method names, so
 * the pinning it causes lands on the same call site.
 */
public final class FreshClassCopy extends ClassLoader {

	private final Class<?> original;

	private FreshClassCopy(Class<?> original) {
		super(original.getClassLoader());
		this.original = original;
	}

	/**
	 * Defines and initializes a fresh copy of {@code type}.
	 * @param type a class whose bytecode is on the class path
	 * @return the initialized copy
	 */
	public static Class<?> initialize(Class<?> type) {
		try {
			return Class.forName(type.getName(), true, new FreshClassCopy(type));
		}
		catch (ClassNotFoundException ex) {
			throw new IllegalStateException(ex);
		}
	}

	@Override
	protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
		if (!name.equals(this.original.getName())) {
			return super.loadClass(name, resolve);
		}
		synchronized (getClassLoadingLock(name)) {
			Class<?> loaded = findLoadedClass(name);
			return (loaded != null) ? loaded : define(name);
		}
	}

	private Class<?> define(String name) throws ClassNotFoundException {
		try (InputStream in = this.original.getResourceAsStream(this.original.getSimpleName() + ".class")) {
			byte[] bytes = in.readAllBytes();
			return defineClass(name, bytes, 0, bytes.length);
		}
		catch (IOException ex) {
			throw new ClassNotFoundException(name, ex);
		}
	}

}
