// The three lines of a tile, one under the other in its frame: title, value, hint (object names
// tileTitle, tileValue, tileHint, which the theme's style sheets and the tests name). Shared by
// the health tiles and the change-data-capture tiles, so that both rows look alike.
#pragma once

class QFrame;
class QLabel;

void stackTileLines(QFrame *frame, QLabel *title, QLabel *value, QLabel *hint);
