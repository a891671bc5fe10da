#include "ui/verify/verdictstyle.h"

#include <QCoreApplication>

namespace gantry::ui {

using verify::Verdict;

QColor verdictColor(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass: return QColor(0x1b, 0x7f, 0x3b);
    case Verdict::Skip: return QColor(0x6b, 0x6b, 0x6b);
    case Verdict::Warn: return QColor(0x9a, 0x5b, 0x00);
    case Verdict::Fail: return QColor(0xb3, 0x26, 0x1e);
    case Verdict::Error: return QColor(0x8e, 0x24, 0xaa);
    }
    return {};
}

QColor verdictBackground(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass: return QColor(0xe6, 0xf4, 0xea);
    case Verdict::Skip: return QColor(0xf1, 0xf1, 0xf1);
    case Verdict::Warn: return QColor(0xfe, 0xf3, 0xd6);
    case Verdict::Fail: return QColor(0xfc, 0xe8, 0xe6);
    case Verdict::Error: return QColor(0xf3, 0xe5, 0xf5);
    }
    return {};
}

Verdict verdictOf(verify::CheckStatus status)
{
    switch (status) {
    case verify::CheckStatus::Ok: return Verdict::Pass;
    case verify::CheckStatus::Warn: return Verdict::Warn;
    case verify::CheckStatus::Fail: return Verdict::Fail;
    }
    return Verdict::Fail;
}

QString verdictLabel(Verdict verdict)
{
    switch (verdict) {
    case Verdict::Pass: return QCoreApplication::translate("gantry::ui::Verify", "Pass");
    case Verdict::Skip: return QCoreApplication::translate("gantry::ui::Verify", "Skipped");
    case Verdict::Warn: return QCoreApplication::translate("gantry::ui::Verify", "Warn");
    case Verdict::Fail: return QCoreApplication::translate("gantry::ui::Verify", "Fail");
    case Verdict::Error: return QCoreApplication::translate("gantry::ui::Verify", "Error");
    }
    return {};
}

} // namespace gantry::ui
