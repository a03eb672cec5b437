package dev.brisk.events.sim;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The words the generator builds titles and zone names from. Several need escaping in XML
 * ({@code &}, {@code <}, {@code >}, quotes) or are not ASCII, so a feed reader that gets escaping or
 * UTF-8 wrong shows up in the truth comparison.
 */
final class Names {
    private static final List<String> TITLES = List.of(
            "Camela en concierto",
            "Los Chichos & Las Grecas",
            "Tributo a \"Queen\"",
            "<Unplugged> en el Price",
            "Rock 'n' Roll Revival",
            "Björk · Cornucopia",
            "Orquesta Sinfónica: Año Nuevo",
            "Café Quijano — Gira",
            "Noche de Flamenco & Tapas",
            "Ballet «El Cascanueces»",
            "太鼓 Drums of Japan",
            "Monólogo: \"Lo que <no> se cuenta\"",
            "Jazz en el Jardín",
            "Circo del Sol – Alegría",
            "Żubrówka Folk Night",
            "Mañana & Pasado",
            "\uD83C\uDFB8 Guitar Heroes",
            "Hamlet, de W. Shakespeare",
            "L'Orchestre d'Hiver",
            "Teatro <Infantil> 'Pinocho' & más");

    private static final List<String> CITIES = List.of(
            "Madrid", "Barcelona", "València", "A Coruña", "Málaga", "Sevilla", "Bilbao", "Zaragoza");

    private static final List<String> ZONES = List.of(
            "Platea", "Anfiteatro", "Palco", "Pista", "Grada Norte", "Grada Sur", "Entresuelo",
            "Tribuna Este", "VIP & Backstage", "Zona \"Gold\"", "Butaca <Premium>", "Palco Único",
            "Área Sénior", "Gallinero");

    private Names() {
    }

    /** A title: one of the pool, sometimes with a city. */
    static String title(SplittableRandom random) {
        String t = TITLES.get(random.nextInt(TITLES.size()));
        return random.nextInt(3) == 0 ? t + " (" + CITIES.get(random.nextInt(CITIES.size())) + ")" : t;
    }

    /** A title other than {@code old}. */
    static String otherTitle(SplittableRandom random, String old) {
        String t = title(random);
        // the pool has 20 titles x 9 variants, so two tries almost always differ; the suffix guarantees it
        return t.equals(old) ? t + " (nueva fecha)" : t;
    }

    static String zoneName(SplittableRandom random) {
        return ZONES.get(random.nextInt(ZONES.size()));
    }
}
