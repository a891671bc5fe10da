#pragma once

#include "core/jobs/jobspec.h"

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;

namespace gantry::ui {

// Asks for a job's command, name, working directory, environment and env to activate.
class RunJobDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunJobDialog)

public:
    explicit RunJobDialog(QWidget *parent = nullptr);

    void setSpec(const jobs::JobSpec &spec);
    // The spec as entered, or the error to show (the dialog shows it itself on OK).
    Result<jobs::JobSpec> spec() const;

    QPlainTextEdit *commandEdit() const { return m_command; }
    QLineEdit *nameEdit() const { return m_name; }

    void accept() override;

private:
    QPlainTextEdit *m_command;
    QLineEdit *m_name;
    QLineEdit *m_cwd;
    QPlainTextEdit *m_env;
    QLineEdit *m_venv;
    QLineEdit *m_conda;
    QLabel *m_error;
};

} // namespace gantry::ui
