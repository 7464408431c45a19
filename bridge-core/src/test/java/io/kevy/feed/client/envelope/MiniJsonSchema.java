package io.kevy.feed.client.envelope;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A validator for the subset of JSON Schema 2020-12 that {@code docs/schema/change-envelope.schema.json} uses
 * (type, const, enum, pattern, required, properties, additionalProperties false, items, oneOf, $ref to
 * {@code #/$defs/...}, minimum). It fails on any keyword outside that subset, so the schema cannot silently
 * grow past what the tests check.
 */
final class MiniJsonSchema {
    private static final java.util.Set<String> KNOWN = java.util.Set.of("$schema", "$id", "title", "description",
            "type", "const", "enum", "pattern", "required", "properties", "additionalProperties", "items", "oneOf",
            "$ref", "minimum", "$defs", "format", "contentEncoding");
    private final JsonNode root;

    MiniJsonSchema(JsonNode root) {
        this.root = root;
    }

    /** The violations of {@code value}; empty when valid. */
    List<String> validate(JsonNode value) {
        List<String> errors = new ArrayList<>();
        check(root, value, "$", errors);
        return errors;
    }

    private void check(JsonNode schema, JsonNode v, String path, List<String> errors) {
        for (Iterator<String> it = schema.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!KNOWN.contains(k)) {
                throw new IllegalStateException("schema keyword not supported by the test validator: " + k);
            }
        }
        if (schema.has("$ref")) {
            String ref = schema.get("$ref").asText();
            check(root.at(ref.substring(1)), v, path, errors);
        }
        if (schema.has("type") && !typeOk(schema.get("type").asText(), v)) {
            errors.add(path + ": expected " + schema.get("type").asText() + ", got " + v);
            return;
        }
        if (schema.has("const") && !schema.get("const").equals(v)) {
            errors.add(path + ": expected " + schema.get("const") + ", got " + v);
        }
        if (schema.has("enum")) {
            boolean found = false;
            for (JsonNode e : schema.get("enum")) {
                found |= e.equals(v);
            }
            if (!found) {
                errors.add(path + ": " + v + " not in " + schema.get("enum"));
            }
        }
        if (schema.has("pattern") && v.isTextual() && !Pattern.compile(schema.get("pattern").asText())
                .matcher(v.asText()).find()) {
            errors.add(path + ": " + v + " does not match " + schema.get("pattern"));
        }
        if (schema.has("minimum") && v.isNumber() && v.asDouble() < schema.get("minimum").asDouble()) {
            errors.add(path + ": " + v + " below " + schema.get("minimum"));
        }
        if (schema.has("required")) {
            for (JsonNode r : schema.get("required")) {
                if (!v.has(r.asText())) {
                    errors.add(path + ": missing " + r.asText());
                }
            }
        }
        if (schema.has("properties") && v.isObject()) {
            JsonNode props = schema.get("properties");
            for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> f = it.next();
                if (props.has(f.getKey())) {
                    check(props.get(f.getKey()), f.getValue(), path + "." + f.getKey(), errors);
                } else if (schema.path("additionalProperties").isBoolean()
                        && !schema.get("additionalProperties").asBoolean()) {
                    errors.add(path + ": unexpected property " + f.getKey());
                }
            }
        }
        if (schema.has("items") && v.isArray()) {
            for (int i = 0; i < v.size(); i++) {
                check(schema.get("items"), v.get(i), path + "[" + i + "]", errors);
            }
        }
        if (schema.has("oneOf")) {
            int matches = 0;
            List<String> why = new ArrayList<>();
            for (JsonNode alt : schema.get("oneOf")) {
                List<String> e = new ArrayList<>();
                check(alt, v, path, e);
                if (e.isEmpty()) {
                    matches++;
                } else {
                    why.addAll(e);
                }
            }
            if (matches != 1) {
                errors.add(path + ": matches " + matches + " of oneOf (" + why + ")");
            }
        }
    }

    private static boolean typeOk(String type, JsonNode v) {
        switch (type) {
            case "object":
                return v.isObject();
            case "array":
                return v.isArray();
            case "string":
                return v.isTextual();
            case "integer":
                return v.isIntegralNumber();
            case "number":
                return v.isNumber();
            case "boolean":
                return v.isBoolean();
            case "null":
                return v.isNull();
            default:
                throw new IllegalStateException("type " + type);
        }
    }
}
