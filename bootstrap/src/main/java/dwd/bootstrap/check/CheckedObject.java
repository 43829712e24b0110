package dwd.bootstrap.check;

import dwd.application.check.CheckResult;

/**
 * The result of checking one object, and where the object came from.
 *
 * @param source {@code file:line} for an object from a file, {@code live} for one read from the API
 */
record CheckedObject(String source, CheckResult result) {
}
