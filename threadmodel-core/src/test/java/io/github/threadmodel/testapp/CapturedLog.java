package io.github.threadmodel.testapp;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * What the core logs while an action runs. The core logs through Commons Logging, which
 * without a logging library writes to {@code java.util.logging}; the records are taken
 * with a handler of the test's own, as the console handler may have been bound to the
 * output before a test could capture it.
 */
public final class CapturedLog {

	private CapturedLog() {
	}

	/**
	 * The records one category logs while the action runs.
	 * @param category the class whose logger to listen to
	 * @param level the least level to record (the logger's level meanwhile)
	 * @param action what to run
	 * @return the records, in order
	 */
	public static List<LogRecord> during(Class<?> category, Level level, Runnable action) {
		List<LogRecord> records = new CopyOnWriteArrayList<>();
		Logger logger = Logger.getLogger(category.getName());
		Level previous = logger.getLevel();
		Handler handler = new Handler() {

			@Override
			public void publish(LogRecord record) {
				records.add(record);
			}

			@Override
			public void flush() {
			}

			@Override
			public void close() {
			}

		};
		handler.setLevel(Level.ALL);
		logger.addHandler(handler);
		logger.setLevel(level);
		try {
			action.run();
		}
		finally {
			logger.removeHandler(handler);
			logger.setLevel(previous);
		}
		return records;
	}

}
