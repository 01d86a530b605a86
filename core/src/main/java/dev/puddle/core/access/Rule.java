package dev.puddle.core.access;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.iceberg.catalog.Namespace;

/**
 * What a caller must have for an {@link Operation}: nothing, the {@code service_admin} role, some
 * catalog role of the warehouse, a privilege on one of the request's {@link Targets}, sight of one
 * of them, or all or any of several such rules.
 */
public sealed interface Rule {
  /** Which of a request's targets a rule is about. */
  enum On {
    CATALOG,
    NAMESPACE,
    /** The namespace that holds the request's namespace: the catalog for a top-level one. */
    PARENT_NAMESPACE,
    TABLE,
    VIEW,
    /** The namespace a rename moves its table or view into. */
    DESTINATION_NAMESPACE;

    Securable of(Targets targets) {
      return switch (this) {
        case CATALOG -> Securable.catalog();
        case NAMESPACE -> Securable.namespace(targets.namespace());
        case PARENT_NAMESPACE -> {
          String[] levels = targets.namespace().levels();
          yield Securable.namespace(Namespace.of(Arrays.copyOf(levels, levels.length - 1)));
        }
        case TABLE -> Securable.table(targets.object());
        case VIEW -> Securable.view(targets.object());
        case DESTINATION_NAMESPACE -> Securable.namespace(targets.destination().namespace());
      };
    }
  }

  /** What the caller lacks to pass this rule, as a 403 says it; empty if it passes. */
  Optional<String> missing(CallerAccess access, Targets targets);

  /** Whether the rule reads grants of a warehouse; if not, the caller's realm-wide roles decide. */
  boolean inWarehouse();

  static Rule anyone() {
    return new Anyone();
  }

  static Rule serviceAdmin() {
    return new ServiceAdmin();
  }

  static Rule catalogRole() {
    return new CatalogRole();
  }

  static Rule holds(Privilege privilege, On on) {
    return new Holds(privilege, on);
  }

  static Rule sees(On on) {
    return new Sees(on);
  }

  static Rule allOf(Rule... rules) {
    return new AllOf(List.of(rules));
  }

  static Rule anyOf(Rule... rules) {
    return new AnyOf(List.of(rules));
  }

  /** Open to anyone, token or not: probes and the token issuer. */
  record Anyone() implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      return Optional.empty();
    }

    @Override
    public boolean inWarehouse() {
      return false;
    }
  }

  /** The caller activates the {@code service_admin} principal role. */
  record ServiceAdmin() implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      return access.serviceAdmin()
          ? Optional.empty()
          : Optional.of(Privilege.SERVICE_MANAGE_ACCESS.name());
    }

    @Override
    public boolean inWarehouse() {
      return false;
    }
  }

  /** The caller's principal roles reach some catalog role of the warehouse. */
  record CatalogRole() implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      return access.hasCatalogRole()
          ? Optional.empty()
          : Optional.of("a catalog role of this warehouse");
    }

    @Override
    public boolean inWarehouse() {
      return true;
    }
  }

  /** The caller holds {@code privilege} on the target or on a securable above it. */
  record Holds(Privilege privilege, On on) implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      Securable target = on.of(targets);
      return access.holds(privilege, target)
          ? Optional.empty()
          : Optional.of(privilege + " on " + target);
    }

    @Override
    public boolean inWarehouse() {
      return true;
    }
  }

  /** The caller may know the target exists: it holds something on it, above it or inside it. */
  record Sees(On on) implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      Securable target = on.of(targets);
      return access.sees(target) ? Optional.empty() : Optional.of("a privilege on " + target);
    }

    @Override
    public boolean inWarehouse() {
      return true;
    }
  }

  /** Every rule passes; a 403 names the first that does not. */
  record AllOf(List<Rule> rules) implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      return rules.stream()
          .map(rule -> rule.missing(access, targets))
          .flatMap(Optional::stream)
          .findFirst();
    }

    @Override
    public boolean inWarehouse() {
      return rules.stream().anyMatch(Rule::inWarehouse);
    }
  }

  /** Some rule passes; a 403 names them all. */
  record AnyOf(List<Rule> rules) implements Rule {
    @Override
    public Optional<String> missing(CallerAccess access, Targets targets) {
      List<Optional<String>> missing =
          rules.stream().map(rule -> rule.missing(access, targets)).toList();
      return missing.stream().anyMatch(Optional::isEmpty)
          ? Optional.empty()
          : Optional.of(
              missing.stream().map(Optional::orElseThrow).collect(Collectors.joining(" or ")));
    }

    @Override
    public boolean inWarehouse() {
      return rules.stream().anyMatch(Rule::inWarehouse);
    }
  }
}
