package io.kevy.engine.dump;

/** Redis 7.0's RDB object type bytes ({@code src/rdb.h}) and the payload version DUMP writes. */
final class RdbType {
    /** {@code RDB_VERSION} of Redis 7.0: DUMP writes it, RESTORE refuses anything newer. */
    static final int VERSION = 10;

    static final int STRING = 0;
    static final int LIST = 1;
    static final int SET = 2;
    static final int ZSET = 3;
    static final int HASH = 4;
    static final int ZSET_2 = 5;
    static final int HASH_ZIPMAP = 9;
    static final int LIST_ZIPLIST = 10;
    static final int SET_INTSET = 11;
    static final int ZSET_ZIPLIST = 12;
    static final int HASH_ZIPLIST = 13;
    static final int LIST_QUICKLIST = 14;
    static final int HASH_LISTPACK = 16;
    static final int ZSET_LISTPACK = 17;
    static final int LIST_QUICKLIST_2 = 18;
    /** {@code RDB_OPCODE_FUNCTION2}: one FUNCTION library, its code (with the shebang) as an RDB string. */
    static final int OPCODE_FUNCTION2 = 245;
    /** {@code RDB_OPCODE_FUNCTION}: a library as Redis 7.0 rc1/rc2 wrote it (name, engine, description, body). */
    static final int OPCODE_FUNCTION_PRE_GA = 246;
    static final int STREAM_LISTPACKS = 15;
    static final int STREAM_LISTPACKS_2 = 19;

    /** Quicklist 2 node containers ({@code QUICKLIST_NODE_CONTAINER_PLAIN / _PACKED}). */
    static final int CONTAINER_PLAIN = 1;
    static final int CONTAINER_PACKED = 2;

    /** String encodings after an {@code RDB_ENCVAL} length byte. */
    static final int ENC_INT8 = 0;
    static final int ENC_INT16 = 1;
    static final int ENC_INT32 = 2;
    static final int ENC_LZF = 3;

    private RdbType() {
    }
}
