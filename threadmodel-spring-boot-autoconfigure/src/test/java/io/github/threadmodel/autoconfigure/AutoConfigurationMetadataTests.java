package io.github.threadmodel.autoconfigure;

import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigureAfter;
import org.springframework.boot.autoconfigure.AutoConfigureBefore;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.core.annotation.MergedAnnotation;
import org.springframework.core.annotation.MergedAnnotations;
import org.springframework.core.io.support.PropertiesLoaderUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The metadata the auto-configure processor writes for the starter's auto-configurations
 * ({@code META-INF/spring-autoconfigure-metadata.properties}), from which Spring Boot
 * filters and orders them at startup without reading their class files: every
 * auto-configuration of this line's starter is there, with the classes it needs and its
 * order as its annotations say.
 */
class AutoConfigurationMetadataTests {

	private static final String STARTER_PACKAGE = "io.github.threadmodel.";

	private final ClassLoader classLoader = getClass().getClassLoader();

	@Test
	void everyAutoConfigurationOfTheStarterIsDescribed() throws Exception {
		Properties metadata = PropertiesLoaderUtils
			.loadAllProperties("META-INF/spring-autoconfigure-metadata.properties", this.classLoader);
		List<String> autoConfigurations = ImportCandidates.load(AutoConfiguration.class, this.classLoader)
			.getCandidates()
			.stream()
			.filter((name) -> name.startsWith(STARTER_PACKAGE))
			.toList();
		assertThat(autoConfigurations).contains(ThreadModelAutoConfiguration.class.getName())
			.anyMatch((name) -> name.endsWith(".ThreadModelWebServerAutoConfiguration"));
		for (String name : autoConfigurations) {
			assertThat(metadata).as(name).containsKey(name);
			MergedAnnotations annotations = MergedAnnotations.from(ClassUtils.forName(name, this.classLoader));
			assertThat(entry(metadata, name, "ConditionalOnClass")).as("%s needs", name)
				.containsExactlyInAnyOrderElementsOf(classNames(annotations.get(ConditionalOnClass.class)));
			assertThat(entry(metadata, name, "AutoConfigureAfter")).as("%s after", name)
				.containsExactlyInAnyOrderElementsOf(classNames(annotations.get(AutoConfigureAfter.class)));
			assertThat(entry(metadata, name, "AutoConfigureBefore")).as("%s before", name)
				.containsExactlyInAnyOrderElementsOf(classNames(annotations.get(AutoConfigureBefore.class)));
		}
	}

	private static List<String> entry(Properties metadata, String autoConfiguration, String key) {
		String value = metadata.getProperty(autoConfiguration + "." + key, "");
		return Arrays.asList(StringUtils.commaDelimitedListToStringArray(value));
	}

	private static List<String> classNames(MergedAnnotation<?> annotation) {
		if (!annotation.isPresent()) {
			return List.of();
		}
		return Stream
			.concat(Arrays.stream(annotation.getStringArray("value")), Arrays.stream(annotation.getStringArray("name")))
			.distinct()
			.toList();
	}

}
