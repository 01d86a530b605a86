package dev.puddle.core.metastore.dataapi;

import java.util.UUID;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.rdsdata.model.Field;
import software.amazon.awssdk.services.rdsdata.model.SqlParameter;
import software.amazon.awssdk.services.rdsdata.model.TypeHint;

/**
 * A value bound to a {@code ?} placeholder, and how it travels through the Data API: the text that
 * replaces the placeholder in the SQL and the named parameter that carries the value.
 */
sealed interface Parameter {

  /** The SQL that takes the placeholder's place; {@code name} is the parameter's name. */
  default String placeholder(String name) {
    return ":" + name;
  }

  /** The named parameter sent with the statement, or null if the SQL carries no parameter. */
  SqlParameter toSql(String name);

  /** About how many bytes the value takes in the request's JSON. */
  default long encodedSize() {
    return 32;
  }

  /**
   * SQL NULL, written into the statement as the literal: PostgreSQL types it from its context, as
   * it does an untyped JDBC null, whatever type the Data API would give a null parameter.
   */
  record Null() implements Parameter {
    @Override
    public String placeholder(String name) {
      return "NULL";
    }

    @Override
    public SqlParameter toSql(String name) {
      return null;
    }
  }

  record Text(String value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder().name(name).value(Field.fromStringValue(value)).build();
    }

    @Override
    public long encodedSize() {
      return JsonText.encodedLength(value) + 32;
    }
  }

  /** A bigint: the Data API sends long values as {@code int8}. */
  record Int64(long value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder().name(name).value(Field.fromLongValue(value)).build();
    }
  }

  /**
   * An integer. The Data API has only long values, so the placeholder is cast back: functions like
   * {@code pg_advisory_xact_lock(int, int)} are resolved by their argument types.
   */
  record Int32(int value) implements Parameter {
    @Override
    public String placeholder(String name) {
      return "CAST(:" + name + " AS integer)";
    }

    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder().name(name).value(Field.fromLongValue((long) value)).build();
    }
  }

  record Bool(boolean value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder().name(name).value(Field.fromBooleanValue(value)).build();
    }
  }

  record Uuid(UUID value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder()
          .name(name)
          .value(Field.fromStringValue(value.toString()))
          .typeHint(TypeHint.UUID)
          .build();
    }
  }

  /**
   * An instant, as JDBC's {@code setTimestamp} binds it: sent as ISO-8601 text in UTC and cast to
   * {@code timestamptz}, so no time zone of the function or the session shifts it.
   */
  record Instant(java.time.Instant value) implements Parameter {
    @Override
    public String placeholder(String name) {
      return "CAST(:" + name + " AS timestamptz)";
    }

    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder()
          .name(name)
          .value(Field.fromStringValue(value.toString()))
          .build();
    }
  }

  /**
   * An array. The Data API takes no array parameters, so the array travels as its PostgreSQL
   * literal in a string parameter, cast back to the array type in the SQL.
   */
  record Array(DataApiArray value) implements Parameter {
    @Override
    public String placeholder(String name) {
      return "CAST(:" + name + " AS " + value.getBaseTypeName() + "[])";
    }

    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder()
          .name(name)
          .value(Field.fromStringValue(value.literal()))
          .build();
    }

    @Override
    public long encodedSize() {
      return JsonText.encodedLength(value.literal()) + 32;
    }
  }

  /** Bytes, as the Data API's blob value (base64 in the request). */
  record Bytes(byte[] value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder()
          .name(name)
          .value(Field.fromBlobValue(SdkBytes.fromByteArrayUnsafe(value)))
          .build();
    }

    @Override
    public long encodedSize() {
      return 4L * ((value.length + 2) / 3) + 32;
    }
  }

  record Float64(double value) implements Parameter {
    @Override
    public SqlParameter toSql(String name) {
      return SqlParameter.builder().name(name).value(Field.fromDoubleValue(value)).build();
    }
  }

  /**
   * A value too large for one request, staged beforehand in a transaction-local setting (see {@link
   * ParameterStaging}); {@code expression} reads it back from there.
   */
  record Staged(String expression) implements Parameter {
    @Override
    public String placeholder(String name) {
      return expression;
    }

    @Override
    public SqlParameter toSql(String name) {
      return null;
    }
  }
}
