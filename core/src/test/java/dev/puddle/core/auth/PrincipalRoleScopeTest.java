package dev.puddle.core.auth;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Set;
import org.junit.jupiter.api.Test;

/** Scopes as Apache Polaris and Iceberg's clients write them. */
class PrincipalRoleScopeTest {
  @Test
  void icebergsDefaultScopeAndNoScopeAskForAllRoles() {
    assertThat(PrincipalRoleScope.parseRequested("catalog")).contains(PrincipalRoleScope.ALL_ROLES);
    // what Iceberg's remote signing client asks for when the catalog's properties name no scope
    assertThat(PrincipalRoleScope.parseRequested("sign")).contains(PrincipalRoleScope.ALL_ROLES);
    assertThat(PrincipalRoleScope.parseRequested(null)).contains(PrincipalRoleScope.ALL_ROLES);
    assertThat(PrincipalRoleScope.parseRequested("PRINCIPAL_ROLE:ALL"))
        .contains(PrincipalRoleScope.ALL_ROLES);
  }

  @Test
  void namedRolesAreActivatedOneByOne() {
    PrincipalRoleScope scope =
        PrincipalRoleScope.parseRequested("PRINCIPAL_ROLE:reader  PRINCIPAL_ROLE:auditor")
            .orElseThrow();

    assertThat(scope).isEqualTo(new PrincipalRoleScope(false, Set.of("reader", "auditor")));
    assertThat(PrincipalRoleScope.ofToken(scope.toScope())).isEqualTo(scope);
  }

  @Test
  void aRequestForAnythingElseIsNotAScopeThisIssuerGrants() {
    assertThat(PrincipalRoleScope.parseRequested("admin")).isEmpty();
    assertThat(PrincipalRoleScope.parseRequested("PRINCIPAL_ROLE:")).isEmpty();
    assertThat(PrincipalRoleScope.parseRequested("PRINCIPAL_ROLE:reader openid")).isEmpty();
  }

  @Test
  void anExternalTokenWithoutPrincipalRolesActivatesAllOfThem() {
    assertThat(PrincipalRoleScope.ofToken("openid profile"))
        .isEqualTo(PrincipalRoleScope.ALL_ROLES);
    assertThat(PrincipalRoleScope.ofToken(null)).isEqualTo(PrincipalRoleScope.ALL_ROLES);
    assertThat(PrincipalRoleScope.ofToken("openid PRINCIPAL_ROLE:reader").roles())
        .containsExactly("reader");
  }
}
