/* helper_timer.h for bugle: the timer of the CUDA samples (host code; declarations). */
#ifndef BUGLE_HELPER_TIMER_H
#define BUGLE_HELPER_TIMER_H
class StopWatchInterface {
 public:
  virtual ~StopWatchInterface() {}
  virtual void start() = 0;
  virtual void stop() = 0;
  virtual void reset() = 0;
  virtual float getTime() = 0;
  virtual float getAverageTime() = 0;
};
bool sdkCreateTimer(StopWatchInterface **timer);
bool sdkDeleteTimer(StopWatchInterface **timer);
bool sdkStartTimer(StopWatchInterface **timer);
bool sdkStopTimer(StopWatchInterface **timer);
bool sdkResetTimer(StopWatchInterface **timer);
float sdkGetTimerValue(StopWatchInterface **timer);
float sdkGetAverageTimerValue(StopWatchInterface **timer);
#endif
