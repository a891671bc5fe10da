#pragma once

#include <QColor>
#include <QPalette>

class QWidget;

namespace gantry::ui {

// Status colours that stay readable in light and dark themes: a hue for the meaning, its
// lightness picked against the widget's own window colour (never a fixed hex that vanishes on a
// dark palette). Panels call these instead of writing colours into style sheets.
enum class Tone
{
    Error,
    Warning,
    Good,
};

QColor toneColor(Tone tone, const QPalette &palette);
bool isDarkPalette(const QPalette &palette);
// Sets the widget's text colour (QPalette::WindowText and Text) to the tone.
void setToneText(QWidget *widget, Tone tone);
// A banner: a tinted background with the palette's own text colour on top, at enough contrast.
void setToneBackground(QWidget *widget, Tone tone);

} // namespace gantry::ui
