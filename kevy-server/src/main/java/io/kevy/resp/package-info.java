/**
 * RESP, in one place: parsing requests with limits ({@link io.kevy.resp.RespParser},
 * {@link io.kevy.resp.ProtocolLimits}), writing replies ({@link io.kevy.resp.ReplySink},
 * {@link io.kevy.resp.RespWriter}), and effect frames as arrays of bulk strings: encoding and sizing
 * ({@link io.kevy.resp.RespFrames}, {@link io.kevy.resp.RespFrameWriter}, {@link io.kevy.resp.EncodedEffect},
 * {@link io.kevy.resp.RequestBytes}), trusted decoding of what we wrote ({@link io.kevy.resp.EncodedFrame}),
 * validating decoding of files that may be torn or corrupt ({@link io.kevy.resp.FrameReader}), and a frame's key
 * shape ({@link io.kevy.resp.KeyShape}, {@link io.kevy.resp.FrameKeys}, {@link io.kevy.resp.Verbs}).
 */
package io.kevy.resp;
