/**
 * How Redis reads and prints values, byte for byte: integers and doubles ({@link io.kevy.engine.text.RedisNumbers},
 * {@code strtod}, the x87 long double of INCRBYFLOAT), memory sizes as CONFIG SET reads them, glob patterns, and
 * byte-string helpers ({@link io.kevy.engine.text.Bytes}).
 */
package io.kevy.engine.text;
