package io.github.threadmodel.lanes;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Puts the routes of a Spring MVC handler method, or of every handler method of a
 * controller class, in a lane: their requests run on the threads of the lane
 * {@code app.threads.lanes.<name>} configures. On a method it wins over the one on its
 * class; a path of the lane's {@code paths} property wins over both, so that a route can
 * be moved without a new build. The lane must be configured: an annotation that names
 * no lane stops startup.
 * @since 0.1.0
 */
@Target({ ElementType.TYPE, ElementType.METHOD })
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ThreadLane {

	/**
	 * The lane's name, as in {@code app.threads.lanes.<name>}.
	 * @return the name
	 */
	String value();

}
