package io.kevy.engine.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.kevy.testing.OracleFixture;
import io.kevy.testing.RawClient;
import io.kevy.testing.RedisOracle;
import io.kevy.testing.ReplyDiff;
import io.kevy.testing.TestServer;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * RESP3 against a real Redis 7.0: HELLO (its map, its options, its errors) and one corpus of every command family
 * run on both protocols, byte for byte ({@code HELLO 3} first for RESP3). The corpus keeps to replies whose order
 * Redis fixes (integer sets, listpack hashes and zsets), so every reply compares exactly. The other oracle tests
 * run on RESP3 too with {@code -Dkevy.oracle.protocol=3} ({@link OracleFixture}).
 */
class Resp3OracleIT {
    @RegisterExtension
    static final OracleFixture oracle = OracleFixture.create().noFlush().redisArgs("--enable-debug-command", "yes");

    /** Commands per family, each line split on spaces; every reply is compared on RESP2 and on RESP3. */
    private static final List<String> CORPUS = List.of(
            // strings
            "SET s hello", "GET s", "GET nosuch", "MGET s nosuch", "INCRBYFLOAT f 1.5", "INCRBYFLOAT f 0.1",
            "GETEX s", "SET s2 v GET", "SET s3 v NX GET", "LCS s s2", "LCS s s2 IDX", "LCS s s2 IDX WITHMATCHLEN",
            "SETRANGE s 1 EY", "GETDEL nosuch", "STRLEN s",
            // keys
            "EXISTS s nosuch", "TYPE s", "TTL s", "EXPIRE s 100", "PERSIST s", "RANDOMKEY nosuch", "OBJECT ENCODING s",
            "OBJECT ENCODING nosuch", "COPY s s4", "DEL s4", "SCAN 0 MATCH nomatch*",
            // hashes
            "HSET h a 1 b 2 c 3", "HGETALL h", "HGETALL nosuch", "HKEYS h", "HVALS h", "HMGET h a x", "HGET h x",
            "HINCRBYFLOAT h a 1.5", "HRANDFIELD nosuch", "HRANDFIELD nosuch 2 WITHVALUES", "HRANDFIELD h 0",
            "HRANDFIELD h 10 WITHVALUES", "HSCAN h 0", "HEXISTS h a", "HSTRLEN h a",
            // lists
            "RPUSH l a b c", "LRANGE l 0 -1", "LPOP l", "LPOP l 2", "LPOP nosuch", "LPOP nosuch 2", "LPOS l c",
            "LPOS l x", "LPOS l c COUNT 0", "LINDEX l 9", "LMPOP 1 nosuch LEFT", "RPUSH l x y",
            "LMPOP 1 l RIGHT COUNT 2", "BLPOP nosuch2 0.01", "BLMPOP 0.01 1 nosuch2 LEFT",
            // sets (integers: intset order is Redis's)
            "SADD si 3 1 2", "SMEMBERS si", "SMEMBERS nosuch", "SINTER si si", "SINTER si nosuch", "SUNION si nosuch",
            "SDIFF si nosuch", "SISMEMBER si 1", "SMISMEMBER si 1 9", "SRANDMEMBER si 5", "SRANDMEMBER nosuch 5",
            "SPOP nosuch 2", "SADD sp 1 2", "SPOP sp 5", "SPOP sp 0", "SINTERCARD 1 si", "SSCAN si 0",
            // sorted sets
            "ZADD z 1 a 2.5 b 3 c", "ZSCORE z b", "ZSCORE z x", "ZSCORE nosuch x", "ZMSCORE z a x c", "ZINCRBY z 0.1 a",
            "ZADD z INCR 1 c", "ZADD z NX INCR 1 c", "ZRANGE z 0 -1", "ZRANGE z 0 -1 WITHSCORES",
            "ZRANGEBYSCORE z -inf +inf WITHSCORES", "ZREVRANGE z 0 1 WITHSCORES", "ZRANGE nosuch 0 -1 WITHSCORES",
            "ZPOPMIN z", "ZPOPMIN z 1", "ZPOPMAX nosuch", "ZPOPMAX nosuch 2", "ZADD z 1 a 2.5 b 3 c", "ZPOPMAX z 2",
            "ZRANDMEMBER nosuch", "ZRANDMEMBER nosuch 2 WITHSCORES", "ZRANDMEMBER z 10 WITHSCORES",
            "ZADD z2 1 a 5 d", "ZUNION 2 z z2 WITHSCORES", "ZINTER 2 z z2 WITHSCORES", "ZDIFF 2 z z2 WITHSCORES",
            "ZMPOP 1 nosuch MIN", "ZMPOP 2 nosuch z2 MAX COUNT 1", "BZPOPMIN z2 0", "BZPOPMIN nosuch 0.01",
            "BZMPOP 0.01 1 nosuch MIN", "ZADD z2 1 a 5 d", "BZMPOP 0 1 z2 MIN COUNT 5", "ZSCAN z 0", "ZRANK z a",
            "ZRANK z x", "ZCARD z", "ZADD zinf -inf m +inf n", "ZRANGE zinf 0 -1 WITHSCORES", "ZSCORE zinf n",
            // streams
            "XADD x 1-1 f v", "XADD x 2-1 f w", "XRANGE x - +", "XREAD STREAMS x 0", "XREAD STREAMS x nosuch 0 0",
            "XREAD COUNT 1 STREAMS x 1-1", "XREAD STREAMS x $", "XREAD BLOCK 10 STREAMS x $",
            "XGROUP CREATE x g 0", "XREADGROUP GROUP g c STREAMS x >", "XREADGROUP GROUP g c STREAMS x 0",
            "XINFO STREAM x", "XINFO GROUPS x", "XPENDING x g",
            "XAUTOCLAIM x g c2 0 0", "XCLAIM x g c2 0 1-1", "XLEN x",
            // geo
            "GEOADD geo 13.361389 38.115556 Palermo 15.087269 37.502669 Catania", "GEOPOS geo Palermo nosuch",
            "GEOPOS nosuch a", "GEODIST geo Palermo Catania km", "GEODIST geo Palermo nosuch", "GEOHASH geo Palermo",
            "GEORADIUS geo 15 37 200 km WITHDIST WITHCOORD WITHHASH ASC",
            "GEOSEARCH geo FROMLONLAT 15 37 BYRADIUS 200 km ASC WITHCOORD WITHDIST", "ZRANGE geo 0 -1 WITHSCORES",
            // hyperloglog
            "PFADD hll a b c", "PFCOUNT hll", "PFMERGE hll2 hll", "PFCOUNT hll2",
            // bitmaps
            "SETBIT bits 7 1", "BITCOUNT bits", "BITPOS bits 1", "BITFIELD bits GET u8 0", "BITFIELD_RO bits GET u4 0",
            // config and server commands that do not describe the process
            "CONFIG GET maxmemory-policy", "CONFIG GET hash-max-listpack-entries", "CONFIG GET nosuch",
            "CONFIG SET maxmemory 0",
            "COMMAND INFO get", "COMMAND INFO nosuch get", "COMMAND INFO xadd", "COMMAND INFO eval",
            "COMMAND INFO geoadd", "COMMAND DOCS nosuch", "COMMAND GETKEYS set a b",
            "COMMAND GETKEYSANDFLAGS hset a b c", "ECHO e", "PING", "PING p", "DBSIZE", "TIME nosuch",
            "TYPE nosuch", "CLIENT GETNAME",
            "CLIENT TRACKINGINFO", "CLIENT GETREDIR", "MEMORY USAGE nosuch", "OBJECT FREQ nosuch",
            // transactions
            "MULTI", "ZSCORE z b", "HGETALL h", "SMEMBERS si", "EXEC", "MULTI", "DISCARD", "EXEC",
            // scripting: the script's protocol (redis.setresp) and the connection's both count
            "EVAL return{1,2,{3,'x'}} 0", "EVAL return{double=3.5} 0", "EVAL return{double=0.1} 0",
            "EVAL return{double=0/0} 0", "EVAL return{double=math.huge-math.huge} 0", "EVAL return{double=-1/0} 0",
            "EVAL return{big_number='123456789012345678901234567890'} 0",
            "EVAL return{verbatim_string={format='txt',string='hi'}} 0", "EVAL return{map={a=1}} 0",
            "EVAL return{set={x=true}} 0", "EVAL return{map={}} 0", "EVAL return{set={}} 0", "EVAL return{} 0",
            "EVAL return(true) 0", "EVAL return(false) 0", "EVAL return(nil) 0",
            "EVAL redis.setresp(3);return(true) 0", "EVAL redis.setresp(3);return(false) 0",
            "EVAL redis.setresp(3);return{1,true,false} 0",
            "HSET h1 a 1", "SADD s1 7",
            "EVAL return(redis.call('HGETALL','h')) 0", "EVAL redis.setresp(3);return(redis.call('HGETALL','h1')) 0",
            "EVAL redis.setresp(3);return(redis.call('HGETALL','h').map.a) 0",
            "EVAL redis.setresp(3);return(redis.call('ZSCORE','z','a')) 0",
            "EVAL redis.setresp(3);return(redis.call('ZSCORE','z','a').double*2) 0",
            "EVAL redis.setresp(3);return(redis.call('GET','nosuch')==nil) 0",
            "EVAL return(redis.call('GET','nosuch')==false) 0",
            "EVAL redis.setresp(3);return(redis.call('SMEMBERS','s1')) 0",
            "EVAL return(redis.call('SMEMBERS','si')) 0",
            "EVAL redis.setresp(3);return(redis.call('ZRANGE','z',0,-1,'WITHSCORES')) 0",
            "EVAL redis.setresp(3);return(redis.call('XREAD','STREAMS','x','0')) 0",
            "EVAL redis.setresp(3);return(redis.call('GEOPOS','geo','Palermo')) 0",
            "EVAL redis.setresp(3);return(redis.call('ZSCAN','z','0')) 0",
            "EVAL redis.setresp(3);return(redis.call('CONFIG','GET','maxmemory-policy')) 0",
            "EVAL return(redis.setresp(4)) 0",
            // one reply of each type (Redis's own protocol check)
            "DEBUG PROTOCOL string", "DEBUG PROTOCOL integer", "DEBUG PROTOCOL double", "DEBUG PROTOCOL bignum",
            "DEBUG PROTOCOL null", "DEBUG PROTOCOL array", "DEBUG PROTOCOL set", "DEBUG PROTOCOL map",
            "DEBUG PROTOCOL attrib", "DEBUG PROTOCOL true", "DEBUG PROTOCOL false", "DEBUG PROTOCOL verbatim",
            "DEBUG PROTOCOL nosuch", "DEBUG PROTOCOL", "EVAL return(redis.call('DEBUG','PROTOCOL','map')) 0",
            // errors keep their bytes on both protocols
            "HGETALL s", "GET h", "ZSCORE s x", "NOSUCHCOMMAND", "ZADD z INCR 1 a 2 b");

    /** The corpus on a new pair of connections speaking {@code protocol}, from an empty server. */
    @ParameterizedTest(name = "RESP{0}")
    @ValueSource(ints = {2, 3})
    void everyFamilyMatchesRedis(int protocol) {
        try (ReplyDiff diff = connections(protocol)) {
            diff.same("FLUSHALL");
            for (String line : CORPUS) {
                diff.same(line.split(" "));
            }
            diff.same("CONFIG", "SET", "maxmemory", "0");
        }
    }

    /** RESP3 replies are RESP3 typed: spot checks that the corpus is not passing on two RESP2 servers. */
    @Test
    void resp3TypesAreOnTheWire() {
        try (ReplyDiff diff = connections(3)) {
            diff.same("FLUSHALL");
            diff.same("HSET", "h", "a", "1");
            assertThat(diff.same("HGETALL", "h")).isEqualTo("%1\r\n$1\r\na\r\n$1\r\n1\r\n");
            diff.same("ZADD", "z", "1.5", "m");
            assertThat(diff.same("ZSCORE", "z", "m")).isEqualTo(",1.5\r\n");
            assertThat(diff.same("ZRANGE", "z", "0", "-1", "WITHSCORES")).isEqualTo("*1\r\n*2\r\n$1\r\nm\r\n,1.5\r\n");
            assertThat(diff.same("GET", "nosuch")).isEqualTo("_\r\n");
            assertThat(diff.same("SMEMBERS", "nosuch")).isEqualTo("~0\r\n");
            assertThat(diff.same("INFO", "keyspace")).startsWith("=");
            assertThat(diff.same("EVAL", "redis.setresp(3);return true", "0")).isEqualTo("#t\r\n");
            assertThat(diff.same("DEBUG", "PROTOCOL", "attrib")).startsWith("|1\r\n");
            assertThat(diff.same("FUNCTION", "STATS")).startsWith("%2\r\n$14\r\nrunning_script\r\n_\r\n");
            diff.same("FUNCTION", "LOAD", "#!lua name=r3\nredis.register_function('f', function() return 1 end)");
            diff.same("FUNCTION", "LIST");
            diff.same("FUNCTION", "STATS");
            diff.same("FUNCTION", "FLUSH");
            // a push frame, then the real reply
            assertThat(diff.same("DEBUG", "PROTOCOL", "push")).isEqualTo(">2\r\n$16\r\nserver-cpu-usage\r\n:42\r\n");
            diff.sameReply("the reply after the push");
            diff.same("FLUSHALL");
        }
    }

    @Test
    void helloAnswersAsRedis() {
        try (ReplyDiff diff = new ReplyDiff(oracle.kevy().raw(), oracle.redis().raw())) {
            for (String line : List.of("HELLO 4", "HELLO 1", "HELLO x", "HELLO -1", "HELLO 99999999999999999999",
                    "HELLO 3 AUTH", "HELLO 3 AUTH default", "HELLO 3 SETNAME", "HELLO 3 FOO", "HELLO 3 SETNAME a b",
                    "HELLO 3 AUTH nosuchuser pw")) {
                diff.same(line.split(" "));
            }
            diff.same("HELLO", "3", "SETNAME", "has space");
            // still RESP2: every failed HELLO left the protocol as it was
            assertThat(diff.same("GET", "nosuch")).isEqualTo("$-1\r\n");
            assertThat(sameButId(diff, "HELLO")).contains("proto\r\n:2\r\n");
            assertThat(sameButId(diff, "HELLO", "3", "SETNAME", "kevy-hello")).startsWith("%7\r\n")
                    .contains("proto\r\n:3\r\n");
            diff.same("CLIENT", "GETNAME");
            assertThat(diff.same("GET", "nosuch")).isEqualTo("_\r\n");
            assertThat(sameButId(diff, "HELLO")).startsWith("%7\r\n"); // no version: the protocol stays
            assertThat(diff.same("RESET")).isEqualTo("+RESET\r\n");
            assertThat(diff.same("GET", "nosuch")).isEqualTo("$-1\r\n");
            assertThat(sameButId(diff, "HELLO", "3")).startsWith("%7\r\n");
            assertThat(sameButId(diff, "HELLO", "2")).startsWith("*14\r\n");
            // the default user has nopass without requirepass: any password authenticates
            assertThat(sameButId(diff, "HELLO", "3", "AUTH", "default", "any")).startsWith("%7\r\n");
        }
    }

    @Test
    void helloAuthenticatesWithRequirepass() {
        try (TestServer kevy = TestServer.start(c -> c.with(io.kevy.server.config.ServerOptions.REQUIREPASS, "pw"));
             RedisOracle redis = RedisOracle.start()) {
            assertThat(redis.raw().call("CONFIG", "SET", "requirepass", "pw")).isEqualTo("+OK\r\n");
            helloWithPassword(new ReplyDiff(kevy.raw(), redis.raw()));
        }
    }

    private static void helloWithPassword(ReplyDiff d) {
        try (ReplyDiff diff = d) {
            diff.same("HELLO", "3");
            diff.same("HELLO", "3", "AUTH", "default", "wrong");
            diff.same("HELLO", "3", "SETNAME", "x");
            diff.same("GET", "k");
            assertThat(sameButId(diff, "HELLO", "3", "AUTH", "default", "pw", "SETNAME", "n")).startsWith("%7\r\n");
            assertThat(diff.same("GET", "k")).isEqualTo("_\r\n");
            diff.same("CLIENT", "GETNAME");
        }
    }

    /** A Pub/Sub RESP3 connection: push frames, and commands run while subscribed. */
    @Test
    void pubSubPushesOnResp3() {
        try (ReplyDiff diff = connections(3); RawClient kevyPub = oracle.kevy().raw();
             RawClient redisPub = oracle.redis().raw()) {
            assertThat(diff.same("SUBSCRIBE", "ch", "ch2")).isEqualTo(">3\r\n$9\r\nsubscribe\r\n$2\r\nch\r\n:1\r\n");
            diff.sameReply("the second subscribe");
            diff.same("PSUBSCRIBE", "c*");
            assertThat(diff.same("GET", "nosuch")).isEqualTo("_\r\n"); // no subscribed mode on RESP3
            diff.same("PING");
            diff.same("PING", "x");
            kevyPub.call("PUBLISH", "ch", "hi");
            redisPub.call("PUBLISH", "ch", "hi");
            assertThat(diff.sameReply("message")).isEqualTo(">3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nhi\r\n");
            assertThat(diff.sameReply("pmessage")).startsWith(">4\r\n$8\r\npmessage\r\n");
            diff.same("UNSUBSCRIBE", "ch");
            diff.same("PUNSUBSCRIBE", "nosuch");
            diff.same("UNSUBSCRIBE");
            diff.same("PUNSUBSCRIBE");
            diff.same("PUNSUBSCRIBE");
            diff.same("SSUBSCRIBE", "sc");
            kevyPub.call("SPUBLISH", "sc", "s");
            redisPub.call("SPUBLISH", "sc", "s");
            assertThat(diff.sameReply("smessage")).startsWith(">3\r\n$8\r\nsmessage\r\n");
            diff.same("SUNSUBSCRIBE");
            diff.same("PUBSUB", "NUMSUB", "ch", "x");
        }
        try (ReplyDiff resp2 = connections(2)) {
            resp2.same("DEBUG", "PROTOCOL", "push");
        }
    }

    /** A new pair of connections, switched to {@code protocol} by HELLO (not compared: ids and counts differ). */
    private static ReplyDiff connections(int protocol) {
        ReplyDiff d = new ReplyDiff(oracle.kevy().raw(), oracle.redis().raw());
        if (protocol == 3) {
            d.kevy().call("HELLO", "3");
            d.redis().call("HELLO", "3");
        }
        return d;
    }

    /** HELLO's reply on both with the connection id masked (the servers count connections differently). */
    private static String sameButId(ReplyDiff diff, String... args) {
        String expected = diff.redis().call(args).replaceAll("id\r\n:\\d+\r\n", "id\r\n:ID\r\n");
        String actual = diff.kevy().call(args).replaceAll("id\r\n:\\d+\r\n", "id\r\n:ID\r\n");
        assertThat(actual).as("reply to %s", String.join(" ", args)).isEqualTo(expected);
        return actual;
    }
}
