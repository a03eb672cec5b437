package dev.brisk.events.feed;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * A feed with hundreds of thousands of character escapes, as a large real feed has in its titles and
 * zone names: the JDK's per-document entity caps (JDK 24+) must not reject it.
 */
class FeedEntityVolumeTest {
    @Test
    void manyEscapesInOneDocumentAreFine() throws Exception {
        int plans = 30_000;
        StringBuilder xml = new StringBuilder("<planList><output>");
        for (int i = 0; i < plans; i++) {
            xml.append("<base_plan base_plan_id=\"").append(i).append("\" sell_mode=\"online\" title=\"Rock &amp; Roll &lt;")
                    .append(i).append("&gt; &quot;live&quot; &#233;t&#xE9;\">")
                    .append("<plan plan_id=\"1\" plan_start_date=\"2021-06-30T21:00:00\" plan_end_date=\"2021-06-30T22:00:00\">")
                    .append("<zone zone_id=\"1\" price=\"10.00\" name=\"Pit &amp; Stalls\"/></plan></base_plan>");
        }
        xml.append("</output></planList>");
        FeedResult r = new FeedParser().parse(xml.toString().getBytes(StandardCharsets.UTF_8));
        assertThat(r.events()).hasSize(plans);
        assertThat(r.skipped()).isZero();
        assertThat(r.events().get(7).title()).isEqualTo("Rock & Roll <7> \"live\" été");
    }
}
