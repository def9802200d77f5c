package fencing.grader.classpage;

import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Reads the CSV files a batch writes as a person's spreadsheet would: by the names in their header, as text. */
final class Csv {

    private Csv() {
    }

    /** Returns the rows of {@code file}, each by column name. */
    static List<Map<String, String>> rows(Path file) throws IOException {
        List<Map<String, String>> rows = new ArrayList<>();
        try (MappingIterator<Map<String, String>> lines = new CsvMapper().readerForMapOf(String.class)
                .with(CsvSchema.emptySchema().withHeader()).readValues(file.toFile())) {
            lines.forEachRemaining(rows::add);
        }
        return rows;
    }

    /** Returns the pairs {@code similarity.csv} in {@code out} lists, each as {@code first + second}. */
    static List<String> pairs(Path out) throws IOException {
        return pairs(out, "similarity.csv");
    }

    /** Returns the pairs the CSV file {@code name} in {@code out} lists, each as {@code first + second}. */
    static List<String> pairs(Path out, String name) throws IOException {
        return rows(out.resolve(name)).stream().map(row -> row.get("student_a") + " + " + row.get("student_b")).toList();
    }
}
