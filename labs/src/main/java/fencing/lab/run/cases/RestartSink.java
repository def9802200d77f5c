package fencing.lab.run.cases;

import fencing.lab.run.LabProcess;
import fencing.lab.run.Prepared;
import fencing.lab.run.RepeatRun;
import fencing.lab.run.Stage;
import fencing.lab.run.Step;
import fencing.lab.common.Times;
import fencing.lab.sink.SinkReport;
import fencing.support.evidence.EventKind;
import fencing.support.evidence.Evidence.Lane;

/** The restart case's step: the sink server killed with SIGKILL, and a new one started over the same files and port. */
record RestartSink() implements Step {

    @Override
    public void run(Stage stage) {
        Prepared prepared = stage.prepared();
        long pid = prepared.sink().pid();
        long killedAt = Times.nowMicros();
        LabProcess<SinkReport> restarted = prepared.restartSink();
        stage.journal().add(Lane.SINK, EventKind.SINK_KILLED, killedAt, "SIGKILL",
                "the sink server (pid " + pid + ") is killed: no shutdown, nothing flushed on the way out");
        SinkReport.Listening listening = restarted.await(SinkReport.Listening.class, RepeatRun.START_TIMEOUT);
        long upAt = Times.nowMicros();
        stage.journal().add(Lane.SINK, EventKind.SINK_RESTARTED, upAt, "restarted", "a new sink server (pid " + listening.pid() + ") over the same SQLite files");
        stage.progress("sink server (pid %d) killed with SIGKILL and restarted (pid %d) over the same files in %s",
                pid, listening.pid(), Times.seconds(upAt - killedAt));
    }
}
