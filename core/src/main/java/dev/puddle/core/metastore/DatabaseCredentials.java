package dev.puddle.core.metastore;

/**
 * Where new metastore connections get their user name and password. Sources that fetch or compute
 * them (Secrets Manager, RDS IAM auth tokens) cache them per execution environment, fetch them
 * again when the database refuses them (a rotated secret, an expired token) and forget them when a
 * SnapStart snapshot is restored.
 */
public interface DatabaseCredentials {
  /** A user name and its password (or token). */
  record Login(String user, String password) {
    @Override
    public String toString() {
      return "Login[user=" + user + ", password=<hidden>]";
    }
  }

  /** The login to use, from the cache if there is one. */
  Login current();

  /** A login fetched anew, after the database refused the current one. */
  Login refreshed();

  /** Drops whatever is cached: logins, and the credentials used to fetch them. */
  void forget();

  /** A fixed user name and password (either may be null). */
  static DatabaseCredentials fixed(String user, String password) {
    Login login = new Login(user, password);
    return new DatabaseCredentials() {
      @Override
      public Login current() {
        return login;
      }

      @Override
      public Login refreshed() {
        return login;
      }

      @Override
      public void forget() {}
    };
  }
}
