#include "ui/common/themecolors.h"

#include <QWidget>

namespace gantry::ui {
namespace {

int hueOf(Tone tone)
{
    switch (tone) {
    case Tone::Error: return 0;
    case Tone::Warning: return 35;
    case Tone::Good: return 120;
    }
    return 0;
}

} // namespace

bool isDarkPalette(const QPalette &palette)
{
    return palette.color(QPalette::Window).lightnessF() < 0.5;
}

QColor toneColor(Tone tone, const QPalette &palette)
{
    // Light text on dark windows, dark text on light ones; saturation kept moderate so the colour
    // still reads as a colour at either lightness.
    return QColor::fromHsl(hueOf(tone), 170, isDarkPalette(palette) ? 170 : 85);
}

void setToneText(QWidget *widget, Tone tone)
{
    QPalette palette = widget->palette();
    const QColor color = toneColor(tone, palette);
    palette.setColor(QPalette::WindowText, color);
    palette.setColor(QPalette::Text, color);
    widget->setPalette(palette);
}

void setToneBackground(QWidget *widget, Tone tone)
{
    QPalette palette = widget->palette();
    const bool dark = isDarkPalette(palette);
    palette.setColor(QPalette::Window, QColor::fromHsl(hueOf(tone), dark ? 110 : 200, dark ? 55 : 215));
    palette.setColor(QPalette::WindowText, dark ? QColor(240, 240, 240) : QColor(20, 20, 20));
    widget->setAutoFillBackground(true);
    widget->setPalette(palette);
}

} // namespace gantry::ui
