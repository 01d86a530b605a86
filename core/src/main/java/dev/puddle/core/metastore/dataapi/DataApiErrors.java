package dev.puddle.core.metastore.dataapi;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransientConnectionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import software.amazon.awssdk.awscore.exception.AwsServiceException;
import software.amazon.awssdk.core.exception.SdkClientException;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.rdsdata.model.AccessDeniedException;
import software.amazon.awssdk.services.rdsdata.model.BadRequestException;
import software.amazon.awssdk.services.rdsdata.model.DatabaseErrorException;
import software.amazon.awssdk.services.rdsdata.model.DatabaseNotFoundException;
import software.amazon.awssdk.services.rdsdata.model.DatabaseResumingException;
import software.amazon.awssdk.services.rdsdata.model.DatabaseUnavailableException;
import software.amazon.awssdk.services.rdsdata.model.ForbiddenException;
import software.amazon.awssdk.services.rdsdata.model.HttpEndpointNotEnabledException;
import software.amazon.awssdk.services.rdsdata.model.InternalServerErrorException;
import software.amazon.awssdk.services.rdsdata.model.InvalidSecretException;
import software.amazon.awssdk.services.rdsdata.model.SecretsErrorException;
import software.amazon.awssdk.services.rdsdata.model.ServiceUnavailableErrorException;
import software.amazon.awssdk.services.rdsdata.model.StatementTimeoutException;
import software.amazon.awssdk.services.rdsdata.model.TransactionNotFoundException;

/**
 * Turns Data API failures into the {@link SQLException}s the metastore code reads, with the
 * SQLSTATE it branches on. For a failed statement the Data API puts PostgreSQL's own message in a
 * {@code BadRequestException} (or {@code DatabaseErrorException}), ending in {@code SQLState:
 * 23505}; the state is parsed from there, or recognised from PostgreSQL's message text if a message
 * ever comes without it. Failures of the service or of the path to it become connection failures
 * (class 08), so the metastore discards the connection and answers 503.
 */
final class DataApiErrors {
  static final String CONNECTION_FAILURE = "08006";
  static final String UNABLE_TO_CONNECT = "08001";
  static final String CONNECTION_REJECTED = "08004";
  static final String NO_CONNECTION = "08003";
  static final String QUERY_CANCELED = "57014";
  static final String PROGRAM_LIMIT_EXCEEDED = "54000";

  private static final Pattern SQL_STATE =
      Pattern.compile("SQLState:\\s*([0-9A-Z]{5})", Pattern.CASE_INSENSITIVE);

  /** PostgreSQL's messages for the states the metastore depends on, should the state be absent. */
  private static final String[][] MESSAGES = {
    {"duplicate key value violates unique constraint", "23505"},
    {"violates foreign key constraint", "23503"},
    {"could not serialize access", "40001"},
    {"deadlock detected", "40P01"},
    {"canceling statement due to", QUERY_CANCELED},
    {"could not obtain lock", "55P03"},
  };

  private DataApiErrors() {}

  static SQLException translate(SdkException e) {
    String message = message(e);
    if (e instanceof BadRequestException || e instanceof DatabaseErrorException) {
      return new SQLException(message, sqlState(message), e);
    }
    if (e instanceof StatementTimeoutException) {
      return new SQLTimeoutException(message, QUERY_CANCELED, e);
    }
    if (e instanceof TransactionNotFoundException) {
      // the transaction is gone (rolled back after three idle minutes, or by a failover)
      return new SQLNonTransientConnectionException(message, NO_CONNECTION, e);
    }
    if (e instanceof DatabaseResumingException) {
      return new SQLTransientConnectionException(message, UNABLE_TO_CONNECT, e);
    }
    if (e instanceof AccessDeniedException
        || e instanceof ForbiddenException
        || e instanceof InvalidSecretException
        || e instanceof SecretsErrorException
        || e instanceof HttpEndpointNotEnabledException
        || e instanceof DatabaseNotFoundException) {
      return new SQLNonTransientConnectionException(message, CONNECTION_REJECTED, e);
    }
    if (e instanceof DatabaseUnavailableException
        || e instanceof ServiceUnavailableErrorException
        || e instanceof InternalServerErrorException
        || e instanceof SdkClientException) {
      return new SQLTransientConnectionException(message, CONNECTION_FAILURE, e);
    }
    return new SQLException(message, sqlState(message), e);
  }

  /** The SQLSTATE in a Data API message, or null if it names none. */
  static String sqlState(String message) {
    if (message == null) {
      return null;
    }
    Matcher matcher = SQL_STATE.matcher(message);
    if (matcher.find()) {
      return matcher.group(1).toUpperCase(java.util.Locale.ROOT);
    }
    for (String[] known : MESSAGES) {
      if (message.contains(known[0])) {
        return known[1];
      }
    }
    return null;
  }

  private static String message(SdkException e) {
    String message = e.getMessage();
    if (e instanceof AwsServiceException service
        && service.awsErrorDetails() != null
        && service.awsErrorDetails().errorMessage() != null) {
      message = service.awsErrorDetails().errorMessage();
    }
    return message == null ? e.getClass().getSimpleName() : message;
  }
}
