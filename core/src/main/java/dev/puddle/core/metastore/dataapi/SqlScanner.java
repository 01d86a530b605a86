package dev.puddle.core.metastore.dataapi;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds the parts of PostgreSQL text that matter to the Data API adapter — positional {@code ?}
 * placeholders, named {@code :name} parameters, the {@code ;} between statements and the parts of a
 * {@code WITH} — while keeping apart string literals ({@code '…'}, {@code E'…'}), quoted
 * identifiers, dollar-quoted bodies and comments, where the same characters mean nothing.
 */
public final class SqlScanner {

  /** A part of the text found by {@link #scan}. */
  public enum Kind {
    /** A positional placeholder {@code ?}. */
    PLACEHOLDER,
    /** A named parameter {@code :name}; the token includes the colon. */
    NAMED,
    /** A statement separator {@code ;}. */
    SEPARATOR,
    /** A {@code --} or {@code /* … *}{@code /} comment, kept verbatim by rewrites. */
    COMMENT,
    /** A string literal, quoted identifier or dollar-quoted body, kept verbatim by rewrites. */
    LITERAL
  }

  /** Receives the parts of the text as they are found, in order. */
  public interface Visitor {
    /** Text that is none of the {@link Kind}s: code and literals. */
    void text(String sql, int start, int end);

    void token(Kind kind, String token);
  }

  private SqlScanner() {}

  /** Replaces each {@code ?} by what {@code replacement} returns for its 1-based position. */
  public static String replacePlaceholders(
      String sql, java.util.function.IntFunction<String> replacement) {
    StringBuilder out = new StringBuilder(sql.length() + 16);
    int[] position = {0};
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            out.append(text, start, end);
          }

          @Override
          public void token(Kind kind, String token) {
            out.append(kind == Kind.PLACEHOLDER ? replacement.apply(++position[0]) : token);
          }
        });
    return out.toString();
  }

  /** Counts the {@code ?} placeholders. */
  public static int placeholders(String sql) {
    int[] count = {0};
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {}

          @Override
          public void token(Kind kind, String token) {
            if (kind == Kind.PLACEHOLDER) {
              count[0]++;
            }
          }
        });
    return count[0];
  }

  /**
   * Splits a script into its statements, without the separators; pieces that hold nothing but
   * whitespace and comments are left out.
   */
  public static List<String> statements(String script) {
    List<String> statements = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean[] hasCode = {false};
    scan(
        script,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            current.append(text, start, end);
            if (!hasCode[0] && !text.substring(start, end).isBlank()) {
              hasCode[0] = true;
            }
          }

          @Override
          public void token(Kind kind, String token) {
            if (kind == Kind.SEPARATOR) {
              if (hasCode[0]) {
                statements.add(current.toString().strip());
              }
              current.setLength(0);
              hasCode[0] = false;
            } else {
              current.append(token);
              hasCode[0] |= kind != Kind.COMMENT;
            }
          }
        });
    if (hasCode[0]) {
      statements.add(current.toString().strip());
    }
    return statements;
  }

  /**
   * Whether the statement returns rows: it starts, after comments and parentheses, with {@code
   * SELECT}, {@code WITH}, {@code VALUES}, {@code TABLE} or {@code SHOW}. (A data-modifying
   * statement with {@code RETURNING} returns rows too, when run as a query.)
   */
  public static boolean isQuery(String sql) {
    String start = code(sql).replace('(', ' ').stripLeading();
    int end = 0;
    while (end < start.length() && Character.isLetter(start.charAt(end))) {
      end++;
    }
    return switch (start.substring(0, end).toUpperCase(Locale.ROOT)) {
      case "SELECT", "WITH", "VALUES", "TABLE", "SHOW" -> true;
      default -> false;
    };
  }

  /**
   * A statement with a {@code WITH}: its common table expressions, and the statement after them.
   */
  public record With(String tableExpressions, String statement) {}

  private static final Pattern WITH =
      Pattern.compile("^\\s*WITH\\s+(RECURSIVE\\s+)?", Pattern.CASE_INSENSITIVE);
  private static final Pattern STATEMENT =
      Pattern.compile(
          "\\b(SELECT|INSERT|UPDATE|DELETE|MERGE|VALUES|TABLE)\\b", Pattern.CASE_INSENSITIVE);

  /**
   * Splits a statement that starts with {@code WITH} into its table expressions ({@code WITH a AS
   * (…), b AS (…)}) and the statement that follows them; null for any other statement. The
   * statement is the first {@code SELECT}, {@code INSERT}, {@code UPDATE}, … outside parentheses.
   */
  public static With splitWith(String sql) {
    String code = code(sql);
    Matcher with = WITH.matcher(code);
    if (!with.find()) {
      return null;
    }
    int depth = 0;
    for (int i = with.end(); i < code.length(); i++) {
      char c = code.charAt(i);
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        depth--;
      } else if (depth == 0) {
        Matcher statement = STATEMENT.matcher(code).region(i, code.length());
        if (statement.lookingAt() && (i == 0 || !isIdentifierPart(code.charAt(i - 1)))) {
          return new With(sql.substring(0, i).stripTrailing(), sql.substring(i));
        }
      }
    }
    return null;
  }

  /** The text with comments and literals blanked out, so that only code is left, in place. */
  private static String code(String sql) {
    StringBuilder code = new StringBuilder(sql.length());
    scan(
        sql,
        new Visitor() {
          @Override
          public void text(String text, int start, int end) {
            code.append(text, start, end);
          }

          @Override
          public void token(Kind kind, String token) {
            code.append(
                kind == Kind.COMMENT || kind == Kind.LITERAL ? " ".repeat(token.length()) : token);
          }
        });
    return code.toString();
  }

  /** Walks the text once, handing every part to the visitor. */
  public static void scan(String sql, Visitor visitor) {
    int length = sql.length();
    int textStart = 0;
    int i = 0;
    while (i < length) {
      char c = sql.charAt(i);
      char next = i + 1 < length ? sql.charAt(i + 1) : 0;
      Kind kind = null;
      int tokenEnd = i + 1;
      if (c == '\'') {
        boolean backslashEscapes =
            i > 0
                && (sql.charAt(i - 1) == 'E' || sql.charAt(i - 1) == 'e')
                && (i < 2 || !isIdentifierPart(sql.charAt(i - 2)));
        kind = Kind.LITERAL;
        tokenEnd = endOfQuoted(sql, i, '\'', backslashEscapes);
      } else if (c == '"') {
        kind = Kind.LITERAL;
        tokenEnd = endOfQuoted(sql, i, '"', false);
      } else if (c == '-' && next == '-') {
        int newline = sql.indexOf('\n', i);
        kind = Kind.COMMENT;
        tokenEnd = newline < 0 ? length : newline + 1;
      } else if (c == '/' && next == '*') {
        kind = Kind.COMMENT;
        tokenEnd = endOfBlockComment(sql, i);
      } else if (c == '$' && (i == 0 || !isIdentifierPart(sql.charAt(i - 1)))) {
        int end = endOfDollarQuoted(sql, i);
        if (end > 0) {
          kind = Kind.LITERAL;
          tokenEnd = end;
        }
      } else if (c == ':' && next == ':') {
        i += 2; // a cast, not a parameter
        continue;
      } else if (c == '?') {
        kind = Kind.PLACEHOLDER;
      } else if (c == ';') {
        kind = Kind.SEPARATOR;
      } else if (c == ':' && isIdentifierStart(next)) {
        kind = Kind.NAMED;
        while (tokenEnd < length && isIdentifierPart(sql.charAt(tokenEnd))) {
          tokenEnd++;
        }
      }
      if (kind == null) {
        i++;
        continue;
      }
      visitor.text(sql, textStart, i);
      visitor.token(kind, sql.substring(i, tokenEnd));
      i = tokenEnd;
      textStart = i;
    }
    visitor.text(sql, textStart, length);
  }

  private static int endOfQuoted(String sql, int open, char quote, boolean backslashEscapes) {
    int i = open + 1;
    while (i < sql.length()) {
      char c = sql.charAt(i);
      if (backslashEscapes && c == '\\') {
        i += 2;
      } else if (c == quote) {
        if (i + 1 < sql.length() && sql.charAt(i + 1) == quote) {
          i += 2; // a doubled quote stands for itself
        } else {
          return i + 1;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }

  /** Block comments nest in PostgreSQL. */
  private static int endOfBlockComment(String sql, int open) {
    int depth = 0;
    int i = open;
    while (i < sql.length() - 1) {
      if (sql.charAt(i) == '/' && sql.charAt(i + 1) == '*') {
        depth++;
        i += 2;
      } else if (sql.charAt(i) == '*' && sql.charAt(i + 1) == '/') {
        depth--;
        i += 2;
        if (depth == 0) {
          return i;
        }
      } else {
        i++;
      }
    }
    return sql.length();
  }

  /** {@code $tag$ … $tag$}; a {@code $} that does not open a tag (e.g. {@code $1}) is code. */
  private static int endOfDollarQuoted(String sql, int open) {
    int tagEnd = open + 1;
    while (tagEnd < sql.length()
        && isIdentifierPart(sql.charAt(tagEnd))
        && sql.charAt(tagEnd) != '$') {
      tagEnd++;
    }
    if (tagEnd >= sql.length()
        || sql.charAt(tagEnd) != '$'
        || (tagEnd > open + 1 && Character.isDigit(sql.charAt(open + 1)))) {
      return -1;
    }
    String tag = sql.substring(open, tagEnd + 1);
    int close = sql.indexOf(tag, tagEnd + 1);
    return close < 0 ? sql.length() : close + tag.length();
  }

  private static boolean isIdentifierStart(char c) {
    return Character.isLetter(c) || c == '_';
  }

  private static boolean isIdentifierPart(char c) {
    return Character.isLetterOrDigit(c) || c == '_' || c == '$';
  }
}
