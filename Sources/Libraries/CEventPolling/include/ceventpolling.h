#ifndef CEVENTPOLLING_H
#define CEVENTPOLLING_H

// epoll and eventfd, which Swift's Glibc module does not show.
#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
