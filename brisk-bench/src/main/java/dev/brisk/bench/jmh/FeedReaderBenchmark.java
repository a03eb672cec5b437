package dev.brisk.bench.jmh;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Why brisk-events reads its feed with Aalto: the same StAX loop (every element, a price and an id
 * attribute read) over a feed of 10,000 plans × 100 zones (~90 MB, in memory), with the JDK's reader
 * and with Aalto, both non-namespace-aware without DTD support, as the service configures them.
 * {@code ./brisk bench --jmh FeedReader}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 5)
@Measurement(iterations = 3, time = 5)
@Fork(1)
@State(Scope.Benchmark)
public class FeedReaderBenchmark {
    private byte[] feed;
    private XMLInputFactory jdk;
    private XMLInputFactory aalto;

    @Setup
    public void setUp() {
        StringBuilder sb = new StringBuilder(100_000_000).append("<planList version=\"1.0\"><output>\n");
        for (int p = 0; p < 10_000; p++) {
            sb.append("<base_plan base_plan_id=\"").append(p).append("\" sell_mode=\"online\" title=\"Rock &amp; Roll ")
                    .append(p).append("\"><plan plan_start_date=\"2021-06-30T21:00:00\" plan_end_date=\"")
                    .append("2021-06-30T22:00:00\" plan_id=\"").append(p).append("\" sold_out=\"false\">\n");
            for (int z = 0; z < 100; z++) {
                sb.append("<zone zone_id=\"").append(z).append("\" capacity=\"200\" price=\"").append(10 + z)
                        .append(".50\" name=\"Zone ").append(z).append("\" numbered=\"true\"/>\n");
            }
            sb.append("</plan></base_plan>\n");
        }
        feed = sb.append("</output></planList>\n").toString().getBytes(StandardCharsets.UTF_8);
        jdk = configure(XMLInputFactory.newDefaultFactory());
        jdk.setProperty("jdk.xml.maxGeneralEntitySizeLimit", "0");
        jdk.setProperty("jdk.xml.totalEntitySizeLimit", "0");
        aalto = configure(new com.fasterxml.aalto.stax.InputFactoryImpl());
    }

    private static XMLInputFactory configure(XMLInputFactory f) {
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, false);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        return f;
    }

    @Benchmark
    public double jdkStax() throws XMLStreamException {
        return read(jdk);
    }

    @Benchmark
    public double aaltoStax() throws XMLStreamException {
        return read(aalto);
    }

    private double read(XMLInputFactory factory) throws XMLStreamException {
        XMLStreamReader x = factory.createXMLStreamReader(new ByteArrayInputStream(feed));
        double sum = 0;
        while (x.hasNext()) {
            if (x.next() == XMLStreamConstants.START_ELEMENT) {
                String price = x.getAttributeValue(null, "price");
                if (price != null) {
                    sum += Double.parseDouble(price);
                }
                String id = x.getAttributeValue(null, "plan_id");
                if (id != null) {
                    sum += id.length();
                }
            }
        }
        x.close();
        return sum;
    }
}
