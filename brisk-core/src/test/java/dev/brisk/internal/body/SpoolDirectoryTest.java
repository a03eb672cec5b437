package dev.brisk.internal.body;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The spool directory's own life and its sweep, on the file system (a killed process's directory is
 * {@code AbandonedSpoolTest}'s, with real processes).
 */
class SpoolDirectoryTest {
    @TempDir
    Path base;

    private List<String> names() throws IOException {
        try (Stream<Path> s = Files.list(base)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void itsDirectoryIsMadeAtTheFirstFileAndRemovedByTheLastCloseOnceEmpty() throws IOException {
        SpoolDirectory spool = new SpoolDirectory(base);
        spool.open();
        spool.open();
        assertThat(names()).as("nothing made before a body spools").isEmpty();

        Path f = spool.newFile();
        Path own = spool.own();
        assertThat(f.getParent()).isEqualTo(own);
        assertThat(own.getFileName().toString()).startsWith("brisk-spool-" + ProcessHandle.current().pid() + "-");
        assertThat(Files.exists(own.resolve("lock"))).isTrue();

        spool.close();
        assertThat(Files.isDirectory(own)).as("another server still uses it").isTrue();
        spool.close();
        assertThat(Files.isDirectory(own)).as("a body file is still there").isTrue();
        assertThat(spool.own()).isEqualTo(own);

        Files.delete(f);
        spool.open();
        spool.close();
        assertThat(names()).as("the last close with nothing left").isEmpty();
        assertThat(spool.own()).isNull();
        assertThat(spool.newFile().getParent()).as("made again when needed").isNotEqualTo(own).exists();
    }

    @Test
    void itsLockFileTakenAwayItMakesANewDirectoryAtTheNextBody() throws IOException {
        SpoolDirectory spool = new SpoolDirectory(base);
        spool.open();
        Path first = spool.newFile().getParent();
        Files.delete(first.resolve("lock")); // a cleaner of old files: another process may now take it for abandoned
        Path next = spool.newFile().getParent();
        assertThat(next).isNotEqualTo(first);
        assertThat(Files.exists(next.resolve("lock"))).isTrue();
    }

    @Test
    void theSweepRemovesWhatNobodyOwnsAndLeavesTheRest() throws IOException {
        // no lock file (a cleaner of old files took it): the pid in the name decides; no process has pid 99999999
        Path noLock = Files.createDirectory(base.resolve("brisk-spool-99999999-1"));
        Files.write(noLock.resolve("brisk-body-1.tmp"), new byte[10]);
        Path noLockLiveOwner = Files.createDirectory(base.resolve("brisk-spool-1-7")); // pid 1 always runs
        Files.write(noLockLiveOwner.resolve("brisk-body-7.tmp"), new byte[10]);
        Path link = Files.createDirectory(base.resolve("brisk-spool-99999999-8"));
        Path outside = Files.createDirectory(base.resolve("outside"));
        Files.write(outside.resolve("keep.txt"), new byte[1]);
        Files.createSymbolicLink(link.resolve("inner"), outside); // never followed
        Path unlocked = Files.createDirectory(base.resolve("brisk-spool-2-2"));
        Files.createFile(unlocked.resolve("lock"));
        Files.write(unlocked.resolve("brisk-body-2.tmp"), new byte[10]);
        Path makingNow = Files.createDirectory(base.resolve(".brisk-spool-new-3"));
        Path madeLongAgo = Files.createDirectory(base.resolve(".brisk-spool-new-4"));
        Files.setLastModifiedTime(madeLongAgo, FileTime.from(Instant.now().minusSeconds(120)));
        Files.createFile(base.resolve("brisk-spool-5-5")); // a file, not a directory
        Files.createDirectory(base.resolve("other"));

        new SpoolDirectory(base).sweep();

        assertThat(names()).containsExactly(makingNow.getFileName().toString(), "brisk-spool-1-7", "brisk-spool-5-5",
                "brisk-spool-99999999-8", "other", "outside");
        assertThat(Files.exists(noLockLiveOwner.resolve("brisk-body-7.tmp"))).isTrue();
        assertThat(Files.exists(outside.resolve("keep.txt"))).as("nothing followed out of a spool directory").isTrue();
    }
}
