// A TCP port on loopback that accepts connections (the kernel completes the handshake) and
// never says a word: what a server behind a dropped network looks like to libpq.
#pragma once

class SilentPort
{
public:
    SilentPort();
    ~SilentPort();
    SilentPort(const SilentPort &) = delete;
    SilentPort &operator=(const SilentPort &) = delete;

    int port() const { return m_port; } // 0 when the socket could not be set up

private:
    int m_fd = -1;
    int m_port = 0;
};
