package io.github.threadmodel;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;
import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The API (every package of the starter but {@code io.github.threadmodel.internal}, see
 * README.md, "What is API") names no internal type: no public or protected member of a
 * public API type takes, returns or extends one, so that an application compiled against
 * the API never depends on what may change in any release; and an internal type is public
 * only when another package uses it. Reads the compiled classes of the modules on the
 * classpath (the core, the auto-configuration and, run by a starter, its line's package),
 * not the tests'.
 */
class ApiBoundaryTests {

	private static final String ROOT = "io.github.threadmodel.";

	private static final String INTERNAL = ROOT + "internal.";

	@Test
	void noApiSignatureNamesAnInternalType() throws IOException {
		List<Class<?>> api = apiTypes();
		assertThat(api).extracting(Class::getPackageName)
			.contains(ROOT + "executor", ROOT + "actuate", ROOT + "autoconfigure", ROOT + "pinning", ROOT + "lanes");
		Set<String> violations = new TreeSet<>();
		for (Class<?> type : api) {
			violations.addAll(internalTypesNamedBy(type));
		}
		assertThat(violations).as("API signatures that name an internal type").isEmpty();
	}

	/**
	 * A public type under {@code internal} is public because another package uses it; one
	 * that only its own package uses is package-private (README.md, "What is API"). Looks for
	 * the type's name in the compiled classes of the other packages: their constant pools
	 * name every type they use, in code and in signatures.
	 */
	@Test
	void everyPublicInternalTypeIsUsedFromAnotherPackage() throws IOException {
		Map<String, byte[]> classes = mainClasses();
		// each class file read as text once: a type's name in its constant pool is plain ASCII
		Map<String, String> texts = new HashMap<>();
		classes.forEach((name, bytes) -> texts.put(name, new String(bytes, StandardCharsets.ISO_8859_1)));
		Set<String> unused = new TreeSet<>();
		for (String name : classes.keySet()) {
			if (!name.startsWith(INTERNAL) || name.contains("$") || name.contains("__") || name.endsWith("package-info")
					|| !isVisible(ClassUtils.resolveClassName(name, ApiBoundaryTests.class.getClassLoader()))) {
				continue;
			}
			Pattern reference = Pattern.compile(Pattern.quote(name.replace('.', '/')) + "[^\\w]");
			String packageName = ClassUtils.getPackageName(name);
			boolean used = texts.entrySet().stream()
				.filter((other) -> !ClassUtils.getPackageName(other.getKey()).equals(packageName))
				.anyMatch((other) -> reference.matcher(other.getValue()).find());
			if (!used) {
				unused.add(name);
			}
		}
		assertThat(classes).containsKey(INTERNAL + "overload.Shedding");
		assertThat(unused).as("public internal types that no other package uses").isEmpty();
	}

	private static List<Class<?>> apiTypes() throws IOException {
		List<Class<?>> types = new ArrayList<>();
		for (String name : mainClasses().keySet()) {
			if (name.startsWith(INTERNAL) || name.endsWith("package-info") || name.contains("__")) {
				continue;
			}
			Class<?> type = ClassUtils.resolveClassName(name, ApiBoundaryTests.class.getClassLoader());
			if (isVisible(type)) {
				types.add(type);
			}
		}
		return types;
	}

	/** The compiled classes of the starter's modules on the classpath, by name, not the tests'. */
	private static Map<String, byte[]> mainClasses() throws IOException {
		Map<String, byte[]> classes = new HashMap<>();
		for (Resource resource : new PathMatchingResourcePatternResolver(ApiBoundaryTests.class.getClassLoader())
			.getResources("classpath*:io/github/threadmodel/**/*.class")) {
			String location = resource.getURL().toString();
			if (location.contains("/test-classes/") || location.contains("-tests.jar!")) {
				continue;
			}
			String path = location.substring(location.lastIndexOf("io/github/threadmodel/"));
			try (InputStream in = resource.getInputStream()) {
				classes.put(ClassUtils.convertResourcePathToClassName(path.substring(0, path.length() - 6)),
						in.readAllBytes());
			}
		}
		return classes;
	}

	/** Public, and, when nested, nested in public types only. */
	private static boolean isVisible(Class<?> type) {
		for (Class<?> candidate = type; candidate != null; candidate = candidate.getEnclosingClass()) {
			if (!Modifier.isPublic(candidate.getModifiers()) || candidate.isAnonymousClass()) {
				return false;
			}
		}
		return true;
	}

	private static List<String> internalTypesNamedBy(Class<?> type) {
		List<String> found = new ArrayList<>();
		String owner = type.getName();
		check(found, owner + " extends", type.getGenericSuperclass());
		for (Type implemented : type.getGenericInterfaces()) {
			check(found, owner + " implements", implemented);
		}
		for (Constructor<?> constructor : type.getDeclaredConstructors()) {
			if (isApi(constructor.getModifiers(), constructor.isSynthetic())) {
				checkSignature(found, owner + ".<init>", constructor);
			}
		}
		for (Method method : type.getDeclaredMethods()) {
			if (isApi(method.getModifiers(), method.isSynthetic() || method.isBridge())) {
				checkSignature(found, owner + "." + method.getName(), method);
				check(found, owner + "." + method.getName() + " returns", method.getGenericReturnType());
			}
		}
		for (Field field : type.getDeclaredFields()) {
			if (isApi(field.getModifiers(), field.isSynthetic())) {
				check(found, owner + "." + field.getName(), field.getGenericType());
			}
		}
		return found;
	}

	private static boolean isApi(int modifiers, boolean synthetic) {
		return !synthetic && (Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers));
	}

	private static void checkSignature(List<String> found, String member, Executable executable) {
		for (Type parameter : executable.getGenericParameterTypes()) {
			check(found, member + " takes", parameter);
		}
		for (Type thrown : executable.getGenericExceptionTypes()) {
			check(found, member + " throws", thrown);
		}
	}

	private static void check(List<String> found, String where, Type type) {
		if (type == null) {
			return;
		}
		for (Class<?> named : classesIn(type, new HashSet<>())) {
			if (named.getName().startsWith(INTERNAL)) {
				found.add(where + " " + named.getName());
			}
		}
	}

	/** Every class a type names, its type arguments and bounds included. */
	private static Set<Class<?>> classesIn(Type type, Set<Type> seen) {
		Set<Class<?>> classes = new HashSet<>();
		if (!seen.add(type)) {
			return classes;
		}
		if (type instanceof Class<?> plain) {
			classes.add(plain.isArray() ? plain.componentType() : plain);
		}
		else if (type instanceof ParameterizedType parameterized) {
			Stream.concat(Stream.of(parameterized.getRawType()), Arrays.stream(parameterized.getActualTypeArguments()))
				.forEach((part) -> classes.addAll(classesIn(part, seen)));
		}
		else if (type instanceof GenericArrayType array) {
			classes.addAll(classesIn(array.getGenericComponentType(), seen));
		}
		else if (type instanceof WildcardType wildcard) {
			Stream.concat(Arrays.stream(wildcard.getUpperBounds()), Arrays.stream(wildcard.getLowerBounds()))
				.forEach((part) -> classes.addAll(classesIn(part, seen)));
		}
		else if (type instanceof TypeVariable<?> variable) {
			Arrays.stream(variable.getBounds()).forEach((part) -> classes.addAll(classesIn(part, seen)));
		}
		return classes;
	}

}
