package io.kevy.bridge.kafka.connect;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.kevy.feed.client.envelope.ChangeEnvelopes;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;

/**
 * The change envelope ({@link ChangeEnvelopes}, CloudEvents 1.0) as a Connect {@link Struct}, so any converter
 * writes it: {@code JsonConverter} with {@code schemas.enable=false} gives the sidecar's JSON fields (plus
 * {@code null} for the optional fields a change does not have), with {@code schemas.enable=true} the same
 * wrapped in {@code schema}/{@code payload}; Avro and Protobuf converters get a schema. One difference from the
 * JSON form: a byte string that is not valid UTF-8 is the text {@code base64:<standard Base64>} (the envelope's
 * {@code subject} convention) instead of {@code {"base64": ...}}, since a Connect field has one type. Immutable.
 */
final class EnvelopeSchema {
    static final Schema FIELD = SchemaBuilder.struct().name("io.kevy.change.Field")
            .field("name", Schema.STRING_SCHEMA).field("value", Schema.STRING_SCHEMA).build();
    static final Schema SCORED = SchemaBuilder.struct().name("io.kevy.change.Scored")
            .field("member", Schema.STRING_SCHEMA).field("score", Schema.FLOAT64_SCHEMA).build();
    static final Schema STRINGS = SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build();
    static final Schema FIELDS = SchemaBuilder.array(FIELD).optional().build();
    /** A stream snapshot's entry: its id and fields in entry order. */
    static final Schema ENTRY = SchemaBuilder.struct().name("io.kevy.change.StreamEntry")
            .field("id", Schema.STRING_SCHEMA).field("fields", FIELDS).build();

    static final Schema DATA = SchemaBuilder.struct().name("io.kevy.change.Data")
            .field("op", Schema.STRING_SCHEMA)
            .field("key", Schema.OPTIONAL_STRING_SCHEMA)
            .field("keys", STRINGS)
            .field("shard", Schema.INT32_SCHEMA)
            .field("generation", Schema.INT64_SCHEMA)
            .field("offset", Schema.INT64_SCHEMA)
            .field("value", Schema.OPTIONAL_STRING_SCHEMA)
            .field("fields", FIELDS)
            .field("fieldNames", STRINGS)
            .field("elements", STRINGS)
            .field("scored", SchemaBuilder.array(SCORED).optional().build())
            .field("count", Schema.OPTIONAL_INT64_SCHEMA)
            .field("ids", STRINGS)
            .field("entries", SchemaBuilder.array(ENTRY).optional().build())
            .field("group", Schema.OPTIONAL_STRING_SCHEMA)
            .field("consumer", Schema.OPTIONAL_STRING_SCHEMA)
            .field("subcommand", Schema.OPTIONAL_STRING_SCHEMA)
            .field("lastId", Schema.OPTIONAL_STRING_SCHEMA)
            .field("entriesAdded", Schema.OPTIONAL_INT64_SCHEMA)
            .field("maxDeletedId", Schema.OPTIONAL_STRING_SCHEMA)
            .field("ttlMs", Schema.OPTIONAL_INT64_SCHEMA)
            .field("expireAtMs", Schema.OPTIONAL_INT64_SCHEMA)
            .field("keepTtl", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .field("valueType", Schema.OPTIONAL_STRING_SCHEMA)
            .field("to", Schema.OPTIONAL_STRING_SCHEMA)
            .field("from", Schema.OPTIONAL_STRING_SCHEMA)
            .field("exact", Schema.BOOLEAN_SCHEMA)
            .field("argv", STRINGS)
            .build();

    static final Schema ENVELOPE = SchemaBuilder.struct().name("io.kevy.change.Envelope").version(1)
            .doc("A kevy change as a CloudEvents 1.0 event (docs/schema/change-envelope.schema.json)")
            .field("specversion", Schema.STRING_SCHEMA)
            .field("id", Schema.STRING_SCHEMA)
            .field("source", Schema.STRING_SCHEMA)
            .field("type", Schema.STRING_SCHEMA)
            .field("subject", Schema.OPTIONAL_STRING_SCHEMA)
            .field("time", Schema.STRING_SCHEMA)
            .field("datacontenttype", Schema.STRING_SCHEMA)
            .field("kevyshard", Schema.INT32_SCHEMA)
            .field("kevygeneration", Schema.STRING_SCHEMA)
            .field("kevyoffset", Schema.STRING_SCHEMA)
            .field("data", DATA)
            .build();

    private EnvelopeSchema() {
    }

    /** {@code envelope} as a struct of {@link #ENVELOPE}; fields the schema does not name are not carried. */
    static Struct struct(ObjectNode envelope) {
        return struct(ENVELOPE, envelope);
    }

    private static Struct struct(Schema schema, JsonNode node) {
        Struct s = new Struct(schema);
        for (Field f : schema.fields()) {
            JsonNode v = node.get(f.name());
            if (v != null && !v.isNull()) {
                s.put(f, value(f.schema(), v));
            }
        }
        return s;
    }

    private static Object value(Schema schema, JsonNode v) {
        switch (schema.type()) {
            case STRING:
                return text(v);
            case INT32:
                return v.asInt();
            case INT64:
                return v.asLong();
            case BOOLEAN:
                return v.asBoolean();
            case FLOAT64:
                if (v.isTextual()) {
                    return v.textValue().startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
                }
                return v.asDouble();
            case ARRAY:
                List<Object> out = new ArrayList<>(v.size());
                for (JsonNode e : v) {
                    out.add(value(schema.valueSchema(), e));
                }
                return out;
            case STRUCT:
                return struct(schema, v);
            default:
                throw new IllegalStateException("no mapping for " + schema.type());
        }
    }

    /** A JSON byte string as text: itself, or {@code base64:...} for {@code {"base64": ...}}. */
    private static String text(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isObject() && v.has(ChangeEnvelopes.BASE64)) {
            return "base64:" + Base64.getEncoder().encodeToString(ChangeEnvelopes.decodeBytes(v));
        }
        return v.asText();
    }
}
