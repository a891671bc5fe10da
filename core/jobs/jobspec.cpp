#include "core/jobs/jobspec.h"
#include "core/jobs/jobstext.h"

#include <QDateTime>
#include <QFileInfo>
#include <QRegularExpression>

namespace gantry::jobs {

QString jobMethodName(JobMethod method)
{
    switch (method) {
    case JobMethod::Tmux: return QStringLiteral("tmux");
    case JobMethod::Screen: return QStringLiteral("screen");
    case JobMethod::Nohup: return QStringLiteral("nohup");
    case JobMethod::Auto: break;
    }
    return QStringLiteral("auto");
}

JobMethod jobMethodFromName(const QString &name)
{
    const QString n = name.trimmed().toLower();
    if (n == u"tmux")
        return JobMethod::Tmux;
    if (n == u"screen")
        return JobMethod::Screen;
    if (n == u"nohup")
        return JobMethod::Nohup;
    return JobMethod::Auto;
}

Result<void> validateJobName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"));
    if (name.isEmpty())
        return makeError(ErrorCode::Usage, JobsText::tr("The job name is empty; give a name such as \"train\"."));
    if (!pattern.match(name).hasMatch() || name.contains(u".."))
        return makeError(ErrorCode::Usage,
                         JobsText::tr("\"%1\" is not a valid job name: use up to 64 letters, digits, '.', '_' or '-', "
                                     "starting with a letter or digit.")
                             .arg(name));
    return {};
}

QString defaultJobName(const QString &command, const QDateTime &now)
{
    // The script or program name is what users recognise ("train" for "python train.py").
    static const QRegularExpression interpreter(QStringLiteral("^(python[0-9.]*|bash|sh|torchrun|accelerate|deepspeed|uv|env|nohup|exec|time)$"));
    static const QRegularExpression script(QStringLiteral("\\.(py|sh|ipynb|jl|lua|R|pl|rb)$"));
    static const QRegularExpression number(QStringLiteral("^[0-9.:,]+$"));
    QString base;
    const QStringList words = command.split(QRegularExpression(QStringLiteral("\\s+")), Qt::SkipEmptyParts);
    for (const QString &word : words) {
        if (script.match(word).hasMatch()) {
            base = QFileInfo(word).completeBaseName();
            break;
        }
    }
    QString program; // the last interpreter seen: `python3 -c '…'` is named after it, not "import"
    for (qsizetype i = 0; base.isEmpty() && i < words.size(); ++i) {
        const QString &word = words[i];
        if (word == u"-c") {
            base = program.isEmpty() ? QStringLiteral("job") : program;
            break;
        }
        if (word == u"-m" && i + 1 < words.size()) { // a module run as a script: http.server → http-server
            base = words[i + 1];
            base.replace(u'.', u'-');
            break;
        }
        if (word.startsWith(u'-') || word.contains(u'=') || number.match(word).hasMatch())
            continue;
        if (interpreter.match(word).hasMatch() || word == u"run" || word == u"launch") {
            program = word;
            continue;
        }
        base = QFileInfo(word).completeBaseName();
    }
    base.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]")), QStringLiteral("-"));
    base.remove(QRegularExpression(QStringLiteral("^[-_]+")));
    base = base.left(32);
    if (base.isEmpty())
        base = QStringLiteral("job");
    return base + u'-' + now.toUTC().toString(QStringLiteral("yyyyMMdd-HHmmss"));
}

Result<QPair<QString, QString>> parseEnvAssignment(const QString &assignment)
{
    static const QRegularExpression key(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    const qsizetype eq = assignment.indexOf(u'=');
    const QString name = eq < 0 ? assignment : assignment.left(eq);
    if (eq < 0 || !key.match(name).hasMatch())
        return makeError(ErrorCode::Usage,
                         JobsText::tr("\"%1\" is not an environment assignment: write KEY=VALUE, e.g. CUDA_VISIBLE_DEVICES=0.")
                             .arg(assignment));
    return QPair<QString, QString>(name, assignment.mid(eq + 1));
}

Result<void> validateSpec(const JobSpec &spec)
{
    if (spec.command.trimmed().isEmpty())
        return makeError(ErrorCode::Usage, JobsText::tr("No command to run: give the command line of the job."));
    if (!spec.name.isEmpty()) {
        if (auto ok = validateJobName(spec.name); !ok)
            return ok;
    }
    for (const auto &[k, v] : spec.env) {
        if (auto parsed = parseEnvAssignment(k + u'=' + v); !parsed)
            return parsed.error();
    }
    if (!spec.venv.isEmpty() && !spec.condaEnv.isEmpty())
        return makeError(ErrorCode::Usage, JobsText::tr("Choose either a virtualenv or a conda environment, not both."));
    return {};
}

} // namespace gantry::jobs
