package dev.brisk.internal.http;

import java.util.Arrays;
import java.util.TreeSet;

/**
 * One fuzz input of the HTTP fuzz targets, split into what the fuzzer chooses besides the bytes:
 * {@code [selector][split count][split point, 2 bytes big-endian]... [payload]}. The selector picks the
 * limits; the split points (at most {@link #MAX_SPLITS}, taken modulo the payload's length + 1) are where
 * the payload arrives in pieces. Missing control bytes of a short input read as 0, so every byte array is
 * an input.
 *
 * @param selector the first byte, unsigned
 * @param ends     increasing piece ends in {@code (0, payload.length]}, the last one the whole payload
 * @param payload  the bytes under test
 */
public record FuzzInput(int selector, int[] ends, byte[] payload) {
    public static final int MAX_SPLITS = 7;

    public static FuzzInput of(byte[] data) {
        int selector = data.length > 0 ? data[0] & 0xff : 0;
        int splits = data.length > 1 ? (data[1] & 0xff) % (MAX_SPLITS + 1) : 0;
        int header = Math.min(data.length, 2 + 2 * splits);
        byte[] payload = Arrays.copyOfRange(data, header, data.length);
        TreeSet<Integer> ends = new TreeSet<>();
        for (int i = 0; i < splits; i++) {
            int at = 2 + 2 * i;
            int raw = at + 1 < header ? ((data[at] & 0xff) << 8) | (data[at + 1] & 0xff) : 0;
            int end = raw % (payload.length + 1);
            if (end > 0) {
                ends.add(end);
            }
        }
        ends.add(payload.length);
        return new FuzzInput(selector, ends.stream().mapToInt(Integer::intValue).toArray(), payload);
    }

    /** The input that {@link #of} reads back as these control values and payload (seeds). */
    public static byte[] encode(int selector, int[] splitPoints, byte[] payload) {
        if (splitPoints.length > MAX_SPLITS) {
            throw new IllegalArgumentException("at most " + MAX_SPLITS + " split points");
        }
        byte[] data = new byte[2 + 2 * splitPoints.length + payload.length];
        data[0] = (byte) selector;
        data[1] = (byte) splitPoints.length;
        for (int i = 0; i < splitPoints.length; i++) {
            data[2 + 2 * i] = (byte) (splitPoints[i] >>> 8);
            data[3 + 2 * i] = (byte) splitPoints[i];
        }
        System.arraycopy(payload, 0, data, 2 + 2 * splitPoints.length, payload.length);
        return data;
    }

    public static int[] byteByByte(int n) {
        int[] ends = new int[n];
        for (int i = 0; i < n; i++) {
            ends[i] = i + 1;
        }
        return n == 0 ? new int[] {0} : ends;
    }
}
