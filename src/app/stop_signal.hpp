// Ctrl-C and SIGTERM as a request to stop, for a run that must end cleanly rather than die (a
// trajectory closes its file with the frames so far). While a StopSignal lives, the two signals
// set a flag the run polls; it restores the handlers it replaced. One at a time; a signal the
// process was started ignoring (nohup) stays ignored.
#pragma once

namespace murmur {

class StopSignal {
public:
    StopSignal();
    ~StopSignal();
    StopSignal(const StopSignal&) = delete;
    StopSignal& operator=(const StopSignal&) = delete;
    bool requested() const;  // a signal has arrived
    int signal() const;      // which (SIGINT or SIGTERM), 0 before one
};

}  // namespace murmur
