package dev.puddle.core.metastore.dataapi;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Implements a JDBC interface with a class that has only the methods Puddle uses. A call is
 * forwarded to the implementation's public method of the same name and parameter types; any other
 * method of the interface throws {@link SQLFeatureNotSupportedException}. That keeps the Data API
 * adapter to the subset it really supports, without hundreds of stubs.
 */
final class JdbcSubset {
  /** Per implementation class: the method that serves each interface method, if any. */
  private static final ClassValue<Map<Method, Optional<Method>>> TARGETS =
      new ClassValue<>() {
        @Override
        protected Map<Method, Optional<Method>> computeValue(Class<?> type) {
          return new ConcurrentHashMap<>();
        }
      };

  private JdbcSubset() {}

  static <T> T of(Class<T> jdbcInterface, Object implementation) {
    return jdbcInterface.cast(
        Proxy.newProxyInstance(
            JdbcSubset.class.getClassLoader(),
            new Class<?>[] {jdbcInterface},
            new Handler(jdbcInterface, implementation)));
  }

  /** The adapter's own object behind {@code object}, if it is one of type {@code type}. */
  static <T> T implementation(Object object, Class<T> type) {
    if (Proxy.isProxyClass(object.getClass())
        && Proxy.getInvocationHandler(object) instanceof Handler handler
        && type.isInstance(handler.implementation())) {
      return type.cast(handler.implementation());
    }
    return null;
  }

  private record Handler(Class<?> jdbcInterface, Object implementation)
      implements InvocationHandler {
    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
      return JdbcSubset.invoke(jdbcInterface, implementation, proxy, method, args);
    }
  }

  private static Object invoke(
      Class<?> jdbcInterface, Object implementation, Object proxy, Method method, Object[] args)
      throws Throwable {
    switch (method.getName()) {
      case "equals":
        if (method.getParameterCount() == 1) {
          return proxy == args[0];
        }
        break;
      case "hashCode":
        if (method.getParameterCount() == 0) {
          return System.identityHashCode(proxy);
        }
        break;
      case "isWrapperFor":
        return ((Class<?>) args[0]).isInstance(proxy);
      case "unwrap":
        if (((Class<?>) args[0]).isInstance(proxy)) {
          return proxy;
        }
        throw new SQLException("Not a wrapper for " + args[0]);
      default:
        break;
    }
    Class<?> type = implementation.getClass();
    Optional<Method> target = TARGETS.get(type).computeIfAbsent(method, m -> find(type, m));
    if (target.isEmpty()) {
      String message =
          jdbcInterface.getSimpleName()
              + "."
              + method.getName()
              + " is not supported over the RDS Data API";
      if (Arrays.asList(method.getExceptionTypes()).contains(SQLException.class)) {
        throw new SQLFeatureNotSupportedException(message);
      }
      throw new UnsupportedOperationException(message);
    }
    try {
      return target.get().invoke(implementation, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  private static Optional<Method> find(Class<?> implementation, Method method) {
    try {
      Method target = implementation.getMethod(method.getName(), method.getParameterTypes());
      return method.getReturnType().isAssignableFrom(target.getReturnType())
          ? Optional.of(target)
          : Optional.empty();
    } catch (NoSuchMethodException e) {
      return Optional.empty();
    }
  }
}
