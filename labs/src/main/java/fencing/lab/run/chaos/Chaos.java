package fencing.lab.run.chaos;

import fencing.lab.run.LabCase;
/** Many writers loop on one lock while a seeded nemesis freezes and thaws them; a checker judges the recorded history. */
public final class Chaos implements LabCase {

    @Override
    public String name() {
        return "chaos";
    }

    @Override
    public String title() {
        return "Many writers, random freezes, a checked history";
    }
}
