import java.io.*;
import java.util.*;
import java.util.zip.*;
/** What compressing a 71 KB JSON event page once per request would cost: gzip at levels 1 and 6, timed after a warm-up. */
public class GzipCost {
    public static void main(String[] a) throws Exception {
        StringBuilder sb = new StringBuilder("{\"events\":[");
        Random r = new Random(1);
        int i = 0;
        while (sb.length() < 71_000) {
            if (i > 0) sb.append(',');
            sb.append("{\"id\":\"ev-").append(100000 + r.nextInt(900000)).append("\",\"title\":\"Concert ").append(i)
              .append(" at Hall ").append(r.nextInt(50)).append("\",\"start\":\"2021-03-").append(String.format("%02d", 1 + r.nextInt(28)))
              .append("T").append(String.format("%02d", r.nextInt(24))).append(":00:00Z\",\"venue\":{\"name\":\"Venue ").append(r.nextInt(200))
              .append("\",\"city\":\"").append(new String[]{"Berlin","Paris","Rome","Madrid"}[r.nextInt(4)]).append("\"},\"tags\":[\"music\",\"live\"]}");
            i++;
        }
        byte[] json = sb.append("]}").toString().getBytes("UTF-8");
        for (int level : new int[]{1, 6}) {
            int out = 0;
            for (int w = 0; w < 2000; w++) out = gz(json, level).length; // warm-up
            int n = 3000;
            long t0 = System.nanoTime();
            for (int k = 0; k < n; k++) out += gz(json, level).length;
            long t = System.nanoTime() - t0;
            System.out.printf("level %d: %d bytes -> %d bytes, %.1f us per compression%n", level, json.length, gz(json, level).length, t / 1000.0 / n);
        }
    }
    static byte[] gz(byte[] in, int level) throws IOException {
        ByteArrayOutputStream o = new ByteArrayOutputStream(in.length / 6);
        try (GZIPOutputStream g = new GZIPOutputStream(o, 16384) {{ def.setLevel(level); }}) { g.write(in); }
        return o.toByteArray();
    }
}
