// Replays a fuzz corpus through one harness in the regular build: every file named on the
// command line, and every file in every directory named, runs once through LLVMFuzzerTestOneInput.
// A crash or sanitizer report fails the ctest; the corpus is kept small, so this takes seconds.

#include "fuzzinput.h"

#include <QDirIterator>
#include <QFileInfo>

#include <cstdio>

namespace {
int replayFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read corpus file %s: %s\n", qPrintable(path), qPrintable(file.errorString()));
        return 1;
    }
    const QByteArray data = file.readAll();
    LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()), size_t(data.size()));
    return 0;
}
} // namespace

int main(int argc, char **argv)
{
    int files = 0;
    int failures = 0;
    for (int i = 1; i < argc; ++i) {
        const QString arg = QString::fromLocal8Bit(argv[i]);
        if (QFileInfo(arg).isDir()) {
            QDirIterator it(arg, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                failures += replayFile(it.next());
                ++files;
            }
        } else {
            failures += replayFile(arg);
            ++files;
        }
    }
    if (files == 0) {
        std::fprintf(stderr, "no corpus files given: pass the corpus directories of this harness\n");
        return 1;
    }
    std::printf("replayed %d corpus files, %d unreadable\n", files, failures);
    return failures == 0 ? 0 : 1;
}
