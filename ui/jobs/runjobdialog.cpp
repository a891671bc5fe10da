#include "ui/jobs/runjobdialog.h"

#include "ui/common/themecolors.h"

#include <QDialogButtonBox>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QVBoxLayout>

namespace gantry::ui {

RunJobDialog::RunJobDialog(QWidget *parent)
    : QDialog(parent), m_command(new QPlainTextEdit(this)), m_name(new QLineEdit(this)), m_cwd(new QLineEdit(this)),
      m_env(new QPlainTextEdit(this)), m_venv(new QLineEdit(this)), m_conda(new QLineEdit(this)), m_error(new QLabel(this))
{
    setWindowTitle(tr("Run a job"));
    m_command->setPlaceholderText(tr("python train.py --epochs 10"));
    m_command->setTabChangesFocus(true);
    m_name->setPlaceholderText(tr("from the command, e.g. train-20261130-164500"));
    m_cwd->setPlaceholderText(tr("home directory; e.g. ~/project"));
    m_env->setPlaceholderText(tr("one KEY=VALUE per line, e.g. CUDA_VISIBLE_DEVICES=0"));
    m_env->setTabChangesFocus(true);
    m_env->setMaximumHeight(80);
    m_venv->setPlaceholderText(tr("a virtualenv to activate, e.g. ~/venv"));
    m_conda->setPlaceholderText(tr("a conda environment to activate"));
    m_error->setWordWrap(true);
    setToneText(m_error, Tone::Error);
    m_error->hide();

    auto *form = new QFormLayout;
    form->addRow(tr("&Command:"), m_command);
    form->addRow(tr("&Name:"), m_name);
    form->addRow(tr("&Working directory:"), m_cwd);
    form->addRow(tr("&Environment:"), m_env);
    form->addRow(tr("&Virtualenv:"), m_venv);
    form->addRow(tr("C&onda env:"), m_conda);
    auto *hint = new QLabel(tr("The job runs in tmux (or screen, or nohup) on the machine and keeps running when "
                               "Gantry closes or the connection drops."),
                            this);
    hint->setWordWrap(true);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, this);
    buttons->button(QDialogButtonBox::Ok)->setText(tr("Run"));
    connect(buttons, &QDialogButtonBox::accepted, this, &RunJobDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &RunJobDialog::reject);
    auto *layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(hint);
    layout->addWidget(m_error);
    layout->addWidget(buttons);
    resize(560, 420);
}

void RunJobDialog::setSpec(const jobs::JobSpec &spec)
{
    m_command->setPlainText(spec.command);
    m_name->setText(spec.name);
    m_cwd->setText(spec.workingDir);
    QStringList env;
    for (const auto &[k, v] : spec.env)
        env << k + u'=' + v;
    m_env->setPlainText(env.join(u'\n'));
    m_venv->setText(spec.venv);
    m_conda->setText(spec.condaEnv);
}

Result<jobs::JobSpec> RunJobDialog::spec() const
{
    jobs::JobSpec spec;
    spec.command = m_command->toPlainText().trimmed();
    spec.name = m_name->text().trimmed();
    spec.workingDir = m_cwd->text().trimmed();
    spec.venv = m_venv->text().trimmed();
    spec.condaEnv = m_conda->text().trimmed();
    const QStringList lines = m_env->toPlainText().split(u'\n', Qt::SkipEmptyParts);
    for (const QString &line : lines) {
        if (line.trimmed().isEmpty())
            continue;
        auto pair = jobs::parseEnvAssignment(line.trimmed());
        if (!pair)
            return pair.error();
        spec.env.append(*pair);
    }
    if (auto valid = jobs::validateSpec(spec); !valid)
        return valid.error();
    return spec;
}

void RunJobDialog::accept()
{
    auto result = spec();
    if (!result) {
        m_error->setText(result.error().message);
        m_error->show();
        return;
    }
    QDialog::accept();
}

} // namespace gantry::ui
