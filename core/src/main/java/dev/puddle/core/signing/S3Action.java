package dev.puddle.core.signing;

/**
 * The S3 operations Puddle signs for engines: what Iceberg's {@code S3FileIO} issues to read and
 * write a table's files, and nothing else (no ACLs, tagging, copies or bucket configuration).
 */
public enum S3Action {
  GET_OBJECT(false),
  HEAD_OBJECT(false),
  /** ListObjects and ListObjectsV2, under a prefix within the table. */
  LIST_OBJECTS(false),
  PUT_OBJECT(true),
  CREATE_MULTIPART_UPLOAD(true),
  UPLOAD_PART(true),
  COMPLETE_MULTIPART_UPLOAD(true),
  ABORT_MULTIPART_UPLOAD(true),
  DELETE_OBJECT(true),
  DELETE_OBJECTS(true);

  private final boolean writes;

  S3Action(boolean writes) {
    this.writes = writes;
  }

  /** Whether the operation changes objects: then the caller must hold TABLE_WRITE_DATA. */
  public boolean writes() {
    return writes;
  }
}
