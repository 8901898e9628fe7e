// The banners that come and go while the window is open (the stale banner, the alert bar): a
// strip under the page area, in its parent's layout, that takes room only while one of them
// shows. The page area gives up its bottom lines to it: nothing under the pointer at the top
// moves (a banner inserted above the tiles pushed them and the table down 76 px, and a click
// meant for a row hit a tile), and nothing is covered (a banner floating over the page's bottom
// edge hid the table's last rows, the "N events match" line and the scrollbar).
#pragma once

#include <QWidget>

class QVBoxLayout;

class BannerOverlay : public QWidget
{
    Q_OBJECT
public:
    // Under `area`, in the box layout of `area`'s parent (after it), or floating over its bottom
    // edge where the parent has no box layout.
    explicit BannerOverlay(QWidget *area);

    // Stacked in the order added, the first at the top.
    void addBanner(QWidget *banner);

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    void place();

    QWidget *m_area;
    QVBoxLayout *m_banners;
    bool m_inLayout = false;
};
