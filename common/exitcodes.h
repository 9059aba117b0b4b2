/* Exit codes shared by every lesson program and exercise checker (documented in the root README). */
#ifndef EXITCODES_H
#define EXITCODES_H

#define EXIT_OK        0  /* everything ran and verified                       */
#define EXIT_VERIFY    1  /* a kernel produced a wrong result                  */
#define EXIT_USAGE     2  /* bad command-line arguments                        */
#define EXIT_NO_GPU    3  /* no usable GPU, no driver, driver too old, wrong ARCH */
#define EXIT_CUDA      4  /* any other CUDA error                              */
#define EXIT_NO_MEMORY 5  /* the run needs more GPU or host memory than is free */
#define EXIT_SHORT     6  /* an exercise checker: the kernel is correct but short of the goal */

#endif
