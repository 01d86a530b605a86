package dev.puddle.core.access;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The implications between privileges, as Apache Polaris has them. */
class PrivilegeTest {

  @ParameterizedTest
  @EnumSource(Privilege.class)
  void everyPrivilegeGrantsItself(Privilege privilege) {
    assertThat(privilege.isGrantedBy(privilege)).isTrue();
  }

  @Test
  void writingDataImpliesReadingDataWhichImpliesReadingAndListingTables() {
    assertThat(grantedBy(Privilege.TABLE_WRITE_DATA))
        .containsExactlyInAnyOrder(
            Privilege.TABLE_WRITE_DATA,
            Privilege.TABLE_READ_DATA,
            Privilege.TABLE_WRITE_PROPERTIES,
            Privilege.TABLE_READ_PROPERTIES,
            Privilege.TABLE_LIST);
    assertThat(grantedBy(Privilege.TABLE_READ_DATA))
        .containsExactlyInAnyOrder(
            Privilege.TABLE_READ_DATA, Privilege.TABLE_READ_PROPERTIES, Privilege.TABLE_LIST);
  }

  @Test
  void manageContentImpliesEveryContentPrivilegeAndManageMetadataAllButData() {
    Set<Privilege> content = EnumSet.noneOf(Privilege.class);
    Arrays.stream(Privilege.values())
        .filter(p -> p.level().compareTo(Privilege.Level.NAMESPACE) >= 0)
        .forEach(content::add);

    assertThat(grantedBy(Privilege.CATALOG_MANAGE_CONTENT)).containsAll(content);
    assertThat(grantedBy(Privilege.CATALOG_MANAGE_METADATA))
        .containsAll(
            content.stream()
                .filter(p -> p != Privilege.TABLE_READ_DATA && p != Privilege.TABLE_WRITE_DATA)
                .toList())
        .doesNotContain(Privilege.TABLE_READ_DATA, Privilege.TABLE_WRITE_DATA);
  }

  @Test
  void accessIsManagedOnlyWithTheAccessPrivileges() {
    assertThat(grantedBy(Privilege.CATALOG_MANAGE_CONTENT))
        .doesNotContain(Privilege.CATALOG_MANAGE_ACCESS, Privilege.SERVICE_MANAGE_ACCESS);
    assertThat(grantedBy(Privilege.CATALOG_MANAGE_ACCESS))
        .containsExactly(Privilege.CATALOG_MANAGE_ACCESS);
  }

  @Test
  void fullMetadataCoversTheObjectsMetadataButNotItsData() {
    assertThat(grantedBy(Privilege.TABLE_FULL_METADATA))
        .containsExactlyInAnyOrder(
            Privilege.TABLE_FULL_METADATA,
            Privilege.TABLE_CREATE,
            Privilege.TABLE_DROP,
            Privilege.TABLE_LIST,
            Privilege.TABLE_READ_PROPERTIES,
            Privilege.TABLE_WRITE_PROPERTIES);
  }

  /** Every privilege that holding {@code held} grants. */
  private static Set<Privilege> grantedBy(Privilege held) {
    Set<Privilege> granted = EnumSet.noneOf(Privilege.class);
    Arrays.stream(Privilege.values()).filter(p -> p.isGrantedBy(held)).forEach(granted::add);
    return granted;
  }
}
