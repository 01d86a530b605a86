package dev.puddle.local;

import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A fresh copy of the function's code and libraries in this JVM, as a new execution environment has
 * it: every class outside the JDK is loaded anew, and counted. Only the Lambda runtime's interfaces
 * and {@code org.crac} come from the test's class path, as the Lambda runtime provides them, so the
 * test can call the handler and its hooks directly.
 */
final class IsolatedRuntime extends URLClassLoader {
  private static final List<String> SHARED =
      List.of("com.amazonaws.services.lambda.runtime.", "org.crac.");

  private final Set<String> defined = ConcurrentHashMap.newKeySet();

  private IsolatedRuntime(URL[] urls) {
    super("isolated-runtime", urls, ClassLoader.getPlatformClassLoader());
  }

  /** A runtime over this JVM's class path. */
  static IsolatedRuntime ofClassPath() {
    List<URL> urls = new ArrayList<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      try {
        urls.add(new File(entry).toURI().toURL());
      } catch (MalformedURLException e) {
        throw new IllegalStateException(e);
      }
    }
    return new IsolatedRuntime(urls.toArray(URL[]::new));
  }

  @Override
  protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
    for (String prefix : SHARED) {
      if (name.startsWith(prefix)) {
        return IsolatedRuntime.class.getClassLoader().loadClass(name);
      }
    }
    return super.loadClass(name, resolve);
  }

  @Override
  protected Class<?> findClass(String name) throws ClassNotFoundException {
    Class<?> type = super.findClass(name);
    defined.add(name);
    return type;
  }

  /** How many classes this runtime has loaded so far. */
  int loadedCount() {
    return defined.size();
  }

  /** The names of the classes this runtime has loaded, sorted. */
  Set<String> loaded() {
    return new TreeSet<>(defined);
  }
}
